// Review above the prompt box: the agent's writes held for the user's answer (the diff editor has
// the same Accept / Reject), and the changes it already wrote, per turn: keep or undo per file and
// per hunk. The host sends each list whole on every change.
import * as l10n from '@vscode/l10n';
import type { ChangeAction, PendingWriteView, TurnChangesView, ViewMessage, WriteAction } from '../src/common/protocol';
import { escapeBidi, fileLabel } from '../src/common/bidi';
import { keepFocus } from './a11y';
import { button, h } from './dom';

let send: (m: ViewMessage) => void = () => {};
let writesEl: HTMLElement;
let changesEl: HTMLElement;
/** Where the focus goes when the focused control is gone and the list has none left. */
let fallback: () => HTMLElement | undefined = () => undefined;

export function initReview(post: (m: ViewMessage) => void, writes: HTMLElement, changes: HTMLElement, focusElsewhere: () => HTMLElement): void {
  send = post;
  writesEl = writes;
  changesEl = changes;
  fallback = focusElsewhere;
}

/** The title of a write held for review. */
function wantsTo(agentName: string, isNewFile: boolean, name: string): string {
  return isNewFile ? l10n.t('{0} wants to create {1}', agentName, name) : l10n.t('{0} wants to edit {1}', agentName, name);
}

// ---- agent writes waiting for review (the diff editor has the same Accept / Reject) -------------

export function renderWrites(writes: readonly PendingWriteView[]): void {
  keepFocus(writesEl, () => buildWrites(writes), fallback);
}

function buildWrites(writes: readonly PendingWriteView[]): void {
  writesEl.hidden = writes.length === 0;
  const act = (action: WriteAction, id: string) => () => send({ type: 'write/action', action, id });
  writesEl.replaceChildren(...writes.map(w => {
    const name = fileLabel(w.path);
    const card = h('article', 'write-review', { 'aria-label': wantsTo(w.agentName, w.isNewFile, name) });
    card.append(h('div', 'write-title', { title: escapeBidi(w.path) }, wantsTo(w.agentName, w.isNewFile, name)));
    card.append(h('div', 'diff-state held', {}, l10n.t('Held: nothing is written until you accept.')));
    if (w.conflicts) card.append(h('div', 'write-conflicts', {}, w.conflicts === 1 ? l10n.t('1 conflict with your edits: Accept asks you what to keep.') : l10n.t('{0} conflicts with your edits: Accept asks you what to keep.', w.conflicts)));
    const row = h('div', 'actions');
    row.append(button(l10n.t('Show diff'), 'secondary', act('diff', w.id)), button(l10n.t('Accept'), 'allow', act('accept', w.id)),
      button(l10n.t('Reject'), 'secondary', act('reject', w.id)), button(l10n.t('Accept all for this session'), 'secondary', act('acceptAll', w.id)));
    card.append(row);
    return card;
  }));
}

// ---- the agent's changes, per turn: keep or undo per file and per hunk ---------------------------

const openFiles = new Set<string>();

export function renderChanges(turns: readonly TurnChangesView[]): void {
  keepFocus(changesEl, () => buildChanges(turns), fallback);
}

function buildChanges(turns: readonly TurnChangesView[]): void {
  const files = turns.reduce((n, t) => n + t.files.length, 0);
  changesEl.hidden = files === 0;
  if (!files) { changesEl.replaceChildren(); return; }
  const act = (action: ChangeAction, turnId: string, path?: string, hunkId?: string) => () => send({ type: 'change/action', action, turnId, path, hunkId });
  const box = h('div', 'changes');
  for (const turn of turns) {
    const head = h('div', 'changes-head');
    head.append(h('span', 'changes-title', { title: l10n.t('Already written by the agent: keep them, or undo them') }, turn.files.length === 1 ? l10n.t('1 file changed') : l10n.t('{0} files changed', turn.files.length)),
      h('span', 'diff-state applied', {}, l10n.t('written, undoable')),
      button(l10n.t('Keep all'), 'secondary small', act('keep', turn.turnId)), button(l10n.t('Undo all'), 'secondary small', act('undo', turn.turnId)));
    box.append(head);
    for (const f of turn.files) {
      const key = `${turn.turnId}|${f.path}`;
      const row = h('div', 'change-file', { 'data-k': key });
      // A disclosure button (not <summary>: the file's own buttons may not sit inside another control).
      const name = fileLabel(f.path);
      const open = openFiles.has(key);
      const toggle = h('button', 'change-toggle', { type: 'button', 'aria-expanded': String(open), title: escapeBidi(f.path) });
      toggle.append(h('span', `codicon codicon-chevron-${open ? 'down' : 'right'}`, { 'aria-hidden': 'true' }),
        h('span', 'change-name', {}, f.kind === 'created' ? l10n.t('{0} (created)', name) : f.kind === 'deleted' ? l10n.t('{0} (deleted)', name) : name),
        ...(f.by ? [h('span', 'change-by', {}, l10n.t({ message: 'by {0}', args: [f.by], comment: ['{0} is the helper agent that changed the file'] }))] : []),
        // A binary file (or one not valid in its encoding) has no lines to count.
        ...(f.binary ? [h('span', 'diff-state', {}, l10n.t('binary'))] : [h('span', 'diff-added', {}, `+${f.added}`), h('span', 'diff-removed', {}, `-${f.removed}`)]));
      const hunks = h('div', 'hunks');
      hunks.hidden = !open;
      toggle.addEventListener('click', () => {
        const now = hunks.hidden;
        hunks.hidden = !now;
        toggle.setAttribute('aria-expanded', String(now));
        toggle.firstElementChild!.className = `codicon codicon-chevron-${now ? 'down' : 'right'}`;
        if (now) openFiles.add(key); else openFiles.delete(key);
      });
      const fileRow = h('div', 'change-row');
      fileRow.append(toggle,
        button('', 'icon codicon codicon-diff', act('diff', turn.turnId, f.path), l10n.t('Open diff of {0}', name)),
        button('', 'icon codicon codicon-check', act('keep', turn.turnId, f.path), l10n.t('Keep the changes to {0}', name)),
        button('', 'icon codicon codicon-discard', act('undo', turn.turnId, f.path), l10n.t('Undo the changes to {0}', name)));
      row.append(fileRow, hunks);
      for (const hk of f.hunks) {
        const hr = h('div', 'change-row hunk-row');
        hr.append(h('span', 'change-name', {}, l10n.t('Line {0}', hk.curLine)), h('span', 'diff-added', {}, `+${hk.added}`), h('span', 'diff-removed', {}, `-${hk.removed}`),
          button('', 'icon codicon codicon-diff', act('diff', turn.turnId, f.path, hk.id), l10n.t('Open diff at line {0}', hk.curLine)),
          button('', 'icon codicon codicon-check', act('keep', turn.turnId, f.path, hk.id), l10n.t('Keep the change at line {0}', hk.curLine)),
          button('', 'icon codicon codicon-discard', act('undo', turn.turnId, f.path, hk.id), l10n.t('Undo the change at line {0}', hk.curLine)));
        hunks.append(hr);
      }
      box.append(row);
    }
  }
  changesEl.replaceChildren(box);
}
