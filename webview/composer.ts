// The prompt box: Enter sends (or queues, while the agent works), slash commands and `@` mentions
// in a completion list under it, pasted images, the chips of what is attached, and the draft: what
// is typed and not sent is kept by the host (a prompt that never reached the agent comes back here).
import * as l10n from '@vscode/l10n';
import type { AvailableCommand } from '@agentclientprotocol/sdk/unstable';
import type { BoxState, MentionCandidate, PastedImage, PromptAbilities, ViewMessage } from '../src/common/protocol';
import type { SessionMeta } from '../src/common/sessionMeta';
import { matchCommands } from '../src/common/sessionMeta';
import { takenInto, withReturned } from '../src/common/conversation/drafts';
import { button, h } from './dom';
import { loadMarkdown } from './lazyMarkdown';

let send: (m: ViewMessage) => void = () => {};
let promptEl: HTMLTextAreaElement;
let completionsEl: HTMLUListElement;
let attachmentsEl: HTMLElement;
/** The shown conversation's meta: its slash commands. */
let sessionMeta: () => SessionMeta | undefined = () => undefined;
let abilities: PromptAbilities = { image: false, embeddedContext: false };
const mentions = new Set<string>();
const images: PastedImage[] = [];

export function initComposer(post: (m: ViewMessage) => void, els: { form: HTMLFormElement; prompt: HTMLTextAreaElement; completions: HTMLUListElement; attachments: HTMLElement }, getMeta: () => SessionMeta | undefined): void {
  send = post;
  ({ prompt: promptEl, completions: completionsEl, attachments: attachmentsEl } = els);
  sessionMeta = getMeta;
  els.form.addEventListener('submit', e => { e.preventDefault(); submit(); });
  promptEl.addEventListener('keydown', e => {
    if (!completionsEl.hidden) {
      const items = [...completionsEl.children] as HTMLElement[];
      const current = items.findIndex(i => i.getAttribute('aria-selected') === 'true');
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const next = (current + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length;
        items.forEach((i, k) => i.setAttribute('aria-selected', String(k === next)));
        return;
      }
      if ((e.key === 'Enter' || e.key === 'Tab') && current >= 0) { e.preventDefault(); items[current].click(); return; }
      // Closing the picker is all Escape does here: it must not also stop the turn.
      if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); hideCompletions(); return; }
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) { e.preventDefault(); submit(); }
  });
  promptEl.addEventListener('input', () => { updateCompletions(); saveDraft(); });
  // Clicking elsewhere in VS Code (another view) blurs the page before VS Code discards it.
  window.addEventListener('blur', flushDraft);
  window.addEventListener('pagehide', flushDraft);
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') flushDraft(); });
  promptEl.addEventListener('paste', e => {
    const files = [...(e.clipboardData?.items ?? [])].filter(i => i.kind === 'file' && i.type.startsWith('image/'));
    if (!files.length) return;
    e.preventDefault();
    if (!abilities.image) {
      showComposerNote(l10n.t('This agent does not accept images.'));
      return;
    }
    for (const item of files) {
      const file = item.getAsFile();
      if (!file) continue;
      const reader = new FileReader();
      reader.onload = () => {
        const data = String(reader.result).replace(/^data:[^,]*,/, '');
        images.push({ mimeType: file.type, data });
        renderAttachments();
      };
      reader.readAsDataURL(file);
    }
  });
}

/** What the agent accepts in prompts (pasted images). */
export function setAbilities(abs: PromptAbilities): void {
  abilities = abs;
}

/**
 * The draft of conversation `tab`: into the prompt box, only if it is empty (never over what the
 * user typed since), and only while the box is for that conversation. No `tab`: a prompt that never
 * reached the agent, given back: before what was typed since, if anything (both are kept). `over`:
 * another window's draft taken by the host (drafts.takenInto).
 */
export function restorePrompt(text: string, restored: readonly string[], restoredImages: readonly PastedImage[], tab?: string, over?: BoxState): void {
  if (tab !== undefined && draftTab !== undefined && tab !== draftTab) return;
  if (tab !== undefined && over === undefined && (promptEl.value || images.length)) return;
  const given = { text, mentions: restored, images: restoredImages };
  const box = { text: promptEl.value, mentions: [...mentions], images: [...images] };
  // `over`: another window's last draft (a reload's race), over the box unless typed in meanwhile.
  const back = over ? takenInto(box, over, given) : withReturned(given, box);
  promptEl.value = back.text;
  mentions.clear();
  back.mentions.forEach(m => mentions.add(m));
  images.splice(0, images.length, ...back.images);
  renderAttachments();
  // Typed here and taken from there: the host gets both.
  if (over && back !== given) saveDraft();
}

/** Mentions and text added to what is typed (a file or selection sent to the chat). */
export function insertIntoPrompt(added: readonly string[], text: string): void {
  added.forEach(addMention);
  if (text) promptEl.value += (promptEl.value && !promptEl.value.endsWith('\n') ? '\n' : '') + text;
  saveDraft();
  promptEl.focus();
}

/** Puts `text` into the prompt box (replacing what is there) and focuses it. */
export function fillPrompt(text: string): void {
  promptEl.value = text;
  saveDraft();
  promptEl.focus();
}

/** The host's answer to a mention search, shown if it still matches what is typed. */
export function mentionResults(query: string, results: readonly MentionCandidate[]): void {
  if (currentMentionQuery() === query) showMentionResults(results);
}

/** The slash-command or mention list is open. */
export function pickerOpen(): boolean {
  return !completionsEl.hidden;
}

export function promptBox(): HTMLTextAreaElement {
  return promptEl;
}

function submit(): void {
  const text = promptEl.value;
  if (!text.trim() && !images.length) return;
  send({ type: 'prompt/send', text, mentions: [...mentions], images: [...images] });
  // The answer will be markdown: the renderer loads while the agent thinks.
  loadMarkdown();
  emptyBox();
  saveDraft();
}

/** Nothing typed, mentioned or pasted (not told to the host). */
function emptyBox(): void {
  promptEl.value = '';
  mentions.clear();
  images.length = 0;
  drawAttachments();
  hideCompletions();
}

// What is typed and not sent is kept by the host: VS Code discards this page when the view is
// hidden, and a window reload starts a new one. Each change is sent at once (a message still on its
// way when the page is discarded arrives; one sent from a timer or a blur handler may never be
// sent); only a large draft (pasted images, a long text) is sent at most once per DRAFT_MS while
// typing, its last state always following, and leaving the page sends it at once.
const DRAFT_MS = 250;
const DRAFT_AT_ONCE_CHARS = 64 * 1024;
let draftTimer: ReturnType<typeof setTimeout> | undefined;
/** The conversation what is in the box was typed for (each has its own draft). */
let draftTab: string | undefined;

/**
 * The page shows conversation `tab`: another one than before, what was typed is kept for that one
 * (sent at once) and the box is emptied, for the host to put this one's draft in (composer/restore).
 */
export function showDraftOf(tab: string | undefined): void {
  if (tab === undefined) return;
  if (draftTab !== undefined && draftTab !== tab) {
    flushDraft();
    emptyBox();
  }
  draftTab = tab;
}
let draftSentAt = 0;
function saveDraft(): void {
  const size = promptEl.value.length + images.reduce((n, i) => n + i.data.length, 0);
  if (size <= DRAFT_AT_ONCE_CHARS) { sendDraft(); return; }
  if (draftTimer) return;
  const wait = Math.max(0, draftSentAt + DRAFT_MS - Date.now());
  draftTimer = setTimeout(sendDraft, wait);
}
function sendDraft(): void {
  clearTimeout(draftTimer);
  draftTimer = undefined;
  draftSentAt = Date.now();
  send({ type: 'composer/draft', ...(draftTab === undefined ? {} : { tab: draftTab }), text: promptEl.value, mentions: [...mentions], images: [...images] });
}
const flushDraft = () => { if (draftTimer) sendDraft(); };

function updateCompletions(): void {
  const text = promptEl.value.slice(0, promptEl.selectionStart);
  const meta = sessionMeta();
  const commands = meta ? matchCommands(meta.commands, text) : [];
  if (commands.length) {
    showCompletions(commands.map(c => ({
      label: `/${c.name}`, detail: c.description + (c.input?.hint ? ` — ${c.input.hint}` : ''), apply: () => applyCommand(c),
    })));
    return;
  }
  const q = currentMentionQuery();
  clearTimeout(mentionTimer);
  // Searching the workspace per keystroke is wasteful: ask once typing pauses.
  if (q !== undefined) { mentionTimer = setTimeout(() => send({ type: 'mention/search', query: q }), 150); return; }
  hideCompletions();
}
let mentionTimer: ReturnType<typeof setTimeout> | undefined;

function currentMentionQuery(): string | undefined {
  const m = /(?:^|\s)@([^\s@]*)$/.exec(promptEl.value.slice(0, promptEl.selectionStart));
  return m ? m[1] : undefined;
}

function applyCommand(c: AvailableCommand): void {
  promptEl.value = `/${c.name} `;
  promptEl.placeholder = c.input?.hint ?? promptEl.placeholder;
  hideCompletions();
  // Not typed (no input event): the draft is told here, or hiding the view now would lose it.
  saveDraft();
  promptEl.focus();
}

function showMentionResults(results: readonly MentionCandidate[]): void {
  showCompletions(results.map(r => ({
    label: r.label, detail: r.description, apply: () => {
      const before = promptEl.value.slice(0, promptEl.selectionStart).replace(/@([^\s@]*)$/, `@${r.path} `);
      promptEl.value = before + promptEl.value.slice(promptEl.selectionStart);
      addMention(r.path);
      hideCompletions();
      promptEl.focus();
    },
  })));
}

function showCompletions(entries: { label: string; detail: string; apply: () => void }[]): void {
  if (!entries.length) return hideCompletions();
  completionsEl.replaceChildren(...entries.map((entry, i) => {
    const li = h('li', 'completion', { role: 'option', 'aria-selected': String(i === 0) });
    li.append(h('span', 'completion-label', {}, entry.label), h('span', 'completion-detail', {}, entry.detail));
    li.addEventListener('mousedown', e => { e.preventDefault(); entry.apply(); });
    li.addEventListener('click', () => entry.apply());
    return li;
  }));
  completionsEl.hidden = false;
}

function hideCompletions(): void {
  completionsEl.hidden = true;
  completionsEl.replaceChildren();
}

function addMention(path: string): void {
  mentions.add(path);
  renderAttachments();
}

function renderAttachments(): void {
  saveDraft();
  drawAttachments();
}

function drawAttachments(): void {
  attachmentsEl.replaceChildren();
  for (const m of mentions) {
    attachmentsEl.append(chip(`@${m}`, 'file', () => { mentions.delete(m); renderAttachments(); }));
  }
  images.forEach((img, i) => attachmentsEl.append(chip(l10n.t('image {0} ({1})', i + 1, img.mimeType), 'file-media', () => { images.splice(i, 1); renderAttachments(); })));
}

function chip(label: string, icon: string, remove: () => void): HTMLElement {
  const el = h('span', 'chip');
  el.append(h('span', `codicon codicon-${icon}`, { 'aria-hidden': 'true' }), h('span', '', {}, label),
    button('', 'chip-remove codicon codicon-close', remove, l10n.t('Remove {0}', label)));
  return el;
}

function showComposerNote(text: string): void {
  const note = h('div', 'composer-note', { role: 'alert' }, text);
  attachmentsEl.append(note);
  setTimeout(() => note.remove(), 4000);
}
