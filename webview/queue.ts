// The queued messages (typed while the agent works), between the transcript and the prompt box.
// The host owns the queue and sends it whole on every change (and on `ready`); this draws it and
// sends the user's Edit / Save / Cancel / Remove / Send now. A message being edited keeps its
// element (and the caret) while the rest of the list changes around it.
import * as l10n from '@vscode/l10n';
import type { QueuedPromptView, QueueView, ViewMessage } from '../src/common/protocol';
import { announce, keepFocus } from './a11y';
import { button, h } from './dom';
import './queue.css';

let send: (m: ViewMessage) => void = () => {};
let section: HTMLElement | null = null;
let list: HTMLOListElement | null = null;
let title: HTMLElement | null = null;
let tab = '';
/** Text typed into an open editor, per message, until it is saved or cancelled. */
const drafts = new Map<string, string>();
const shown = new Map<string, { el: HTMLElement; key: string }>();
/** Where the focus goes once the host's answer to the user's click is drawn. */
let focusNext: { id: string; on: 'editor' | 'edit' } | undefined;

export function initQueue(post: (m: ViewMessage) => void): void {
  send = post;
  section = document.getElementById('queue');
  if (!section) return;
  title = h('div', 'queue-title', { id: 'queue-title' });
  list = h('ol', 'queue-items', { 'aria-labelledby': 'queue-title' }) as HTMLOListElement;
  section.replaceChildren(title, list);
}

/** Draws the queue of the shown conversation. */
export function renderQueue(tabId: string, queue: QueueView): void {
  if (!section || !list || !title) return;
  // Another conversation (or the first drawing): its queue is drawn afresh, and not announced.
  const initial = tabId !== tab;
  if (initial) { shown.clear(); list.replaceChildren(); drafts.clear(); tab = tabId; }
  section.hidden = queue.items.length === 0;
  title.textContent = queue.paused
    ? l10n.t('Queued ({0}) · held: they follow your next prompt', queue.items.length)
    : l10n.t("Queued ({0}) · sent when the agent's turn ends", queue.items.length);
  const ids = new Set(queue.items.map(i => i.id));
  // The prompt box emptied on Enter: say where the message went.
  for (const item of queue.items) if (!shown.has(item.id) && !initial) announce(l10n.t('Queued: {0}', item.text), 'status');
  for (const id of [...drafts.keys()]) if (!queue.items.some(i => i.id === id && i.editing)) drafts.delete(id);
  keepFocus(list, () => {
    let prev: Element | null = null;
    queue.items.forEach((item, index) => {
      const key = JSON.stringify([item, queue.sendNow, queue.items.some(i => i.steering), index]);
      let entry = shown.get(item.id);
      // An open editor stays as it is (what is typed, the caret) while the item is still edited.
      if (!entry || (entry.key !== key && !(item.editing && entry.el.classList.contains('editing')))) {
        const el = buildItem(item, index, queue);
        entry?.el.replaceWith(el);
        entry = { el, key };
        shown.set(item.id, entry);
      }
      const at: ChildNode | null = prev ? prev.nextSibling : list!.firstChild;
      if (at !== entry.el) list!.insertBefore(entry.el, at);
      prev = entry.el;
    });
    for (const [id, entry] of shown) if (!ids.has(id)) { entry.el.remove(); shown.delete(id); }
  }, () => document.getElementById('prompt') ?? undefined);
  placeFocus();
}

function buildItem(item: QueuedPromptView, index: number, queue: QueueView): HTMLElement {
  const label = l10n.t('Queued message {0}', index + 1);
  const el = h('li', `queue-item${item.editing ? ' editing' : ''}${item.steering ? ' steering' : ''}${item.error ? ' failed' : ''}`, { 'aria-label': label });
  el.dataset.id = item.id;
  if (item.editing) {
    const editor = h('textarea', 'queue-editor', { rows: '2', 'aria-label': l10n.t('Edit queued message {0}', index + 1) }) as HTMLTextAreaElement;
    editor.value = drafts.get(item.id) ?? item.text;
    editor.addEventListener('input', () => drafts.set(item.id, editor.value));
    const save = () => { focusNext = { id: item.id, on: 'edit' }; drafts.delete(item.id); send({ type: 'queue/save', tab, id: item.id, text: editor.value }); };
    const cancel = () => { focusNext = { id: item.id, on: 'edit' }; drafts.delete(item.id); send({ type: 'queue/action', tab, id: item.id, action: 'cancelEdit' }); };
    editor.addEventListener('keydown', e => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) { e.preventDefault(); save(); }
      // Closing the editor is all Escape does here: it must not also stop the turn.
      else if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); cancel(); }
    });
    const actions = h('div', 'queue-actions');
    actions.append(button(l10n.t('Save'), 'small', save), button(l10n.t('Cancel'), 'small secondary', cancel));
    el.append(editor, actions);
    return el;
  }
  el.append(h('div', 'queue-text', {}, item.text));
  const attached = [...item.mentions.map(m => `@${m}`), ...(item.images ? [item.images === 1 ? l10n.t('1 image') : l10n.t('{0} images', item.images)] : [])];
  if (attached.length) el.append(h('div', 'queue-attachments', {}, attached.join(' · ')));
  if (item.error) el.append(h('div', 'queue-error', { role: 'alert' }, item.error));
  const actions = h('div', 'queue-actions');
  if (item.steering) {
    actions.append(h('span', 'queue-sending', { role: 'status' }, l10n.t('Sending into the running turn…')));
  } else {
    if (queue.sendNow !== 'none') {
      const now = button(l10n.t('Send now'), 'small queue-send-now', () => send({ type: 'queue/action', tab, id: item.id, action: 'sendNow' }),
        l10n.t('Send now: queued message {0}', index + 1));
      now.title = queue.sendNow === 'steer' ? l10n.t("Into the agent's running turn: it reads the message while it works") : l10n.t('As the next prompt, now');
      now.disabled = queue.items.some(i => i.steering);
      actions.append(now);
    }
    actions.append(
      button(l10n.t('Edit'), 'small secondary queue-edit', () => { focusNext = { id: item.id, on: 'editor' }; send({ type: 'queue/action', tab, id: item.id, action: 'edit' }); },
        l10n.t('Edit: queued message {0}', index + 1)),
      button(l10n.t('Remove'), 'small secondary queue-remove', () => send({ type: 'queue/action', tab, id: item.id, action: 'remove' }),
        l10n.t('Remove: queued message {0}', index + 1)),
    );
  }
  el.append(actions);
  return el;
}

/** After Edit the editor has the focus; after Save or Cancel, the message's Edit button. */
function placeFocus(): void {
  if (!focusNext) return;
  const el = shown.get(focusNext.id)?.el;
  const target = focusNext.on === 'editor' ? el?.querySelector<HTMLTextAreaElement>('.queue-editor') : el?.querySelector<HTMLElement>('.queue-edit');
  if (!target) { if (!el) focusNext = undefined; return; }
  focusNext = undefined;
  target.focus();
  if (target instanceof HTMLTextAreaElement) target.setSelectionRange(target.value.length, target.value.length);
}
