// The chat view in the browser. It renders what the host sends and applies transcript operations
// once per animation frame. A streamed message re-renders only itself, once per frame, however
// many chunks arrived; the rest of the transcript is never touched.
import { uiLanguage } from './l10n';
import * as l10n from '@vscode/l10n';
import type { AvailableCommand, SessionConfigOption } from '@agentclientprotocol/sdk/unstable';
import type { ChangeAction, ChatStatus, HostMessage, PendingWriteView, TurnChangesView, WriteAction, MentionCandidate, PastedImage, PromptAbilities, TabInfo, ViewMessage } from '../src/common/protocol';
import type { SessionMeta } from '../src/common/sessionMeta';
import { MESSAGE_DISPLAY_MAX_CHARS, type Item, type ToolCallView, type ToolContentView } from '../src/common/transcript';
import { matchCommands } from '../src/common/sessionMeta';
import { escapeBidi, fileLabel } from '../src/common/bidi';
import { sgrSpans } from '../src/common/terminal/sgr';
import { isAllow, isPrimaryOption, isReject, kindLabel as kindText, orderOptions } from '../src/common/permissionOptions';
import { relativizePaths } from '../src/common/relativePaths';
import { currentMode, modeBehaviour, modeControl, type ModeControl, writesWithoutAsking } from '../src/common/agentModes';
import { announce, keepFocus } from './a11y';
import { loadMarkdown, type MarkdownModule, onMarkdownLoaded, setMarkdown, withMarkdown } from './lazyMarkdown';
import { handlePlanLinks, renderPlans } from './plans';
import { childAsks, tabStateText, withChildAgents } from './childAgents';
import { StreamedMarkdown } from './streamedMarkdown';
import { type Rendered, TranscriptView } from './transcriptView';
import { button, h } from './dom';
import { buildQuestion } from './question';
import { restoreButton } from './checkpoint';
import { initQueue, renderQueue } from './queue';
import { Welcome } from './welcome';
import { ConversationSearch } from './search';
import './chat.css';

declare function acquireVsCodeApi(): { postMessage(message: ViewMessage): void; setState(state: unknown): void };
const vscode = acquireVsCodeApi();
// A helper's tab keeps which conversation and helper it shows: VS Code restores it after a reload.
if (document.body.classList.contains('child-tab')) vscode.setState({ tab: document.body.dataset.tab, childId: document.body.dataset.child });
const send = (m: ViewMessage) => vscode.postMessage(m);

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const transcriptEl = $<HTMLElement>('transcript');
const tabsEl = $<HTMLElement>('tabs');
const statusEl = $<HTMLElement>('status');
const planEl = $<HTMLElement>('plan');
handlePlanLinks(planEl, href => send({ type: 'link/open', href }));
const changesEl = $<HTMLElement>('changes');
const writesEl = $<HTMLElement>('writes');
const promptEl = $<HTMLTextAreaElement>('prompt');
const sendEl = $<HTMLButtonElement>('send');
const stopEl = $<HTMLButtonElement>('stop');
const agentEl = $<HTMLButtonElement>('agent');
const modeEl = $<HTMLSelectElement>('mode');
const configEl = $<HTMLElement>('config');
const modeNoteEl = $<HTMLElement>('mode-note');
const usageEl = $<HTMLElement>('usage');
const completionsEl = $<HTMLUListElement>('completions');
const attachmentsEl = $<HTMLElement>('attachments');
const welcome = new Welcome($<HTMLElement>('welcome'), {
  send,
  fillPrompt: text => { promptEl.value = text; saveDraft(); promptEl.focus(); },
});
/** An empty conversation shows the welcome, and its empty transcript is no Tab stop. */
function showWelcome(empty: boolean): void {
  welcome.setEmpty(empty);
  transcriptEl.tabIndex = empty ? -1 : 0;
}

// ---- state ------------------------------------------------------------------------------------

const transcript = new TranscriptView(transcriptEl, {
  build: withChildAgents(build, m => send(m), () => activeTab), added: announceAdded, stopText,
  loadTurn: turnId => send({ type: 'turn/load', tab: activeTab, turnId }),
});
let activeTab: string | undefined;
const search = new ConversationSearch({
  query: query => send({ type: 'search/query', tab: activeTab, query }),
  open: itemId => send({ type: 'item/openText', tab: activeTab, itemId }),
});
$<HTMLElement>('welcome').before(search.el);
document.addEventListener('keydown', e => {
  if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'f') { e.preventDefault(); search.show(); }
});
let tabs: readonly TabInfo[] = [];
let meta: SessionMeta | undefined;
let abilities: PromptAbilities = { image: false, embeddedContext: false };
const mentions = new Set<string>();
const images: PastedImage[] = [];
const terminalTails = new Map<string, { text: string; exited: boolean }>();
/** The card of a command the agent ran itself → what it shows besides the tail. */
const agentTerminalViews = new WeakMap<HTMLElement, NonNullable<ToolCallView['agentTerminal']>>();
/** Workspace folders: titles show paths relative to them. */
let roots: readonly string[] = [];
/** The agent message being streamed; announced once when it is complete. */
let speaking: string | undefined;
/** The agent message that was just completed: announced after the operations of this frame. */
let finished: string | undefined;

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const msg = event.data;
  switch (msg.type) {
    case 'state/reset':
      speaking = undefined;
      roots = msg.roots ?? [];
      activeTab = msg.activeTab;
      transcript.reset(msg.archived ?? [], msg.items);
      showWelcome(!msg.items.length && !msg.archived?.length);
      // Shown mid-answer (another tab was selected): the answer is still announced when it is complete.
      if (msg.items.at(-1)?.kind === 'agent' && msg.tabs.find(t => t.id === msg.activeTab)?.state === 'busy') speaking = msg.items.at(-1)!.id;
      setTabs(msg.tabs, msg.activeTab);
      setMeta(msg.meta);
      setStatus(msg.status, msg.abilities);
      transcriptEl.scrollTop = transcriptEl.scrollHeight;
      // The view is live (listeners attached, state received): UI tests wait for this.
      document.body.dataset.ready = 'true';
      break;
    case 'transcript/ops':
      if (msg.tab === activeTab) {
        transcript.push(msg.ops);
        if (msg.ops.some(o => o.op === 'add')) showWelcome(false);
      }
      break;
    case 'welcome':
      welcome.set(msg.welcome);
      break;
    case 'turn/items':
      if (msg.tab === activeTab) transcript.loaded(msg.turnId, msg.items);
      break;
    case 'session/meta':
      if (msg.tab === activeTab) setMeta(msg.samePlans && meta?.plans ? { ...msg.meta, plans: meta.plans } : msg.meta);
      break;
    case 'tabs':
      setTabs(msg.tabs, msg.activeTab);
      break;
    case 'status':
      setStatus(msg.status, msg.abilities);
      break;
    case 'search/results':
      if (msg.tab === activeTab) search.results(msg.query, msg.hits);
      break;
    case 'mention/results':
      if (currentMentionQuery() === msg.query) showMentionResults(msg.results);
      break;
    case 'composer/restore':
      // Only into an empty prompt box: never overwrite what the user typed since.
      if (!promptEl.value && !images.length) {
        promptEl.value = msg.text;
        msg.mentions.forEach(addMention);
        images.push(...msg.images);
        renderAttachments();
      }
      break;
    case 'composer/insert':
      msg.mentions.forEach(addMention);
      if (msg.text) promptEl.value += (promptEl.value && !promptEl.value.endsWith('\n') ? '\n' : '') + msg.text;
      saveDraft();
      promptEl.focus();
      break;
    case 'changes':
      renderChanges(msg.turns);
      break;
    case 'writes':
      renderWrites(msg.writes);
      break;
    case 'queue':
      if (msg.tab === activeTab) renderQueue(msg.tab, msg.queue);
      break;
    case 'terminal/tail':
      terminalTails.set(msg.terminalId, { text: msg.text, exited: msg.exited });
      for (const el of document.querySelectorAll<HTMLElement>(`[data-terminal="${CSS.escape(msg.terminalId)}"]`)) fillTerminal(el, msg.terminalId, agentTerminalViews.get(el));
      break;
  }
});

/**
 * Screen readers hear each answer once, complete: a streamed message is announced when the next
 * item arrives below it (the turn's end at the latest), and a permission request when it appears.
 */
function announceAdded(item: Item): void {
  if (speaking && speaking !== item.id) {
    // Read once the frame's operations are applied (one layout, not one per operation), and only
    // the last message a burst finished: a burst of thousands is not read out message by message.
    if (finished === undefined) queueMicrotask(() => {
      // innerText: paragraphs and list items stay apart ("a.b" would be read as one word).
      const text = transcript.textOf(finished!);
      finished = undefined;
      announce(l10n.t('Agent: {0}', text), 'message');
    });
    finished = speaking;
    speaking = undefined;
  }
  if (item.kind === 'agent') speaking = item.id;
  else if (item.kind === 'permission') {
    const p = item.permission;
    // Numbered and named as the card's buttons are.
    const options = orderOptions(p.options).map((o, i) => `${i + 1}: ${o.misleading ? l10n.t('{0} (named “{1}”)', kindText(o.kind), o.name) : o.name}`).join(', ');
    withMarkdown(md => announce(l10n.t('Permission needed: {0}. Options {1}.', titleText(md, p.title), options), 'permission'));
  } else if (item.kind === 'question') announce(l10n.t('The agent asks: {0}', item.question.message), 'permission');
  else if (item.kind === 'turnEnd') announce(stopText(item.stopReason), 'turn');
}

// ---- transcript items -------------------------------------------------------------------------

function build(item: Item): Rendered {
  switch (item.kind) {
    case 'user': {
      const el = h('article', 'message user', { 'aria-label': l10n.t('You') });
      const body = h('div', 'body', {}, item.text);
      el.append(h('div', 'who', {}, l10n.t('You')), body, restoreButton(item.id, activeTab, send));
      return { el, item };
    }
    case 'agent': {
      const el = h('article', `message agent${item.late ? ' late' : ''}`, { 'aria-label': item.late ? l10n.t('Agent, after its turn ended') : l10n.t('Agent') });
      const body = h('div', 'body markdown');
      if (item.late) el.append(lateNote());
      el.append(body);
      return { el, item, stream: new StreamedMarkdown(body, item.text, displayLimit(el, item.id)) };
    }
    case 'thought': {
      const el = h('details', 'thought', { 'data-k': 'thought' });
      const body = h('div', 'body markdown');
      el.append(h('summary', '', {}, l10n.t('Thinking')), body);
      return { el, item, stream: new StreamedMarkdown(body, item.text, displayLimit(el, item.id)) };
    }
    case 'tool': {
      const el = buildTool(item.id, item.late ? { ...item.tool, status: lateStatus(item.tool.status) } : item.tool);
      if (item.late) { el.classList.add('late'); el.prepend(lateNote()); }
      return { el, item };
    }
    case 'permission':
      return { el: buildPermission(item), item };
    case 'question':
      return { el: buildQuestion(item, activeTab, send), item };
    case 'turnEnd':
      return { el: h('div', 'turn-end', { role: 'note' }, stopText(item.stopReason)), item };
    case 'notice': {
      if (!item.severity) return { el: h('div', 'notice', { role: 'note' }, item.text), item };
      // A notice from the agent, with its severity (an error is announced at once).
      const el = h('div', `notice agent-notice severity-${item.severity}`, { role: item.severity === 'error' ? 'alert' : 'note' });
      el.append(h('span', `codicon codicon-${item.severity === 'info' ? 'info' : item.severity}`, { 'aria-hidden': 'true' }),
        h('span', 'notice-severity', {}, item.severity === 'info' ? l10n.t('Info: ') : item.severity === 'warning' ? l10n.t('Warning: ') : l10n.t('Error: ')),
        h('span', 'notice-title', {}, item.text));
      if (item.details) el.append(h('div', 'notice-details', {}, item.details));
      return { el, item };
    }
    case 'compaction': {
      const label = item.status === 'completed' ? l10n.t('Context compacted') : item.status === 'in_progress' ? l10n.t('Compacting the context…')
        : item.status === 'failed' ? (item.error ? l10n.t('Context compaction failed: {0}', item.error) : l10n.t('Context compaction failed'))
        : item.status === 'cancelled' ? l10n.t('Context compaction cancelled') : l10n.t('Context compaction: {0}', item.status);
      if (!item.summary) return { el: h('div', `notice compaction status-${item.status}`, { role: 'note' }, label), item };
      const el = h('details', `notice compaction status-${item.status}`, { 'data-k': 'compaction' });
      el.append(h('summary', '', {}, label), h('div', 'compaction-summary', {}, item.summary));
      return { el, item };
    }
    case 'error': {
      const el = h('article', 'error', { role: 'alert' });
      el.append(h('div', 'error-message', {}, item.message));
      if (item.details) el.append(h('pre', 'error-details', {}, item.details));
      const row = h('div', 'actions');
      for (const action of item.actions) row.append(button(ACTION_LABELS[action], 'secondary', () => send({ type: 'item/action', itemId: item.id, action })));
      if (item.actions.length) el.append(row);
      return { el, item };
    }
    default: // child agents' cards and messages between sessions: webview/childAgents.ts
      return { el: h('div', ''), item };
  }
}

/** A very long message shows its beginning, and a note with the full text one click away (in an editor). */
function displayLimit(el: HTMLElement, itemId: string): { maxChars: number; onCut(): void } {
  return {
    maxChars: MESSAGE_DISPLAY_MAX_CHARS,
    onCut: () => {
      const note = h('div', 'message-cut', { role: 'note' }, l10n.t('This message is too long to show here; only its first {0} characters are shown.', MESSAGE_DISPLAY_MAX_CHARS.toLocaleString(uiLanguage)) + ' ');
      note.append(button(l10n.t('Open the full message'), 'secondary', () => send({ type: 'item/openText', tab: activeTab, itemId })));
      el.append(note);
    },
  };
}
/** Something the agent sent after its turn ended: marked, never shown as running. */
function lateNote(): HTMLElement {
  return h('div', 'late-note', { role: 'note' }, l10n.t('Arrived after the turn ended'));
}
const lateStatus = (status: ToolCallView['status']): ToolCallView['status'] => (status === 'in_progress' ? 'pending' : status);

const STOP_REASONS: Record<string, string> = {
  end_turn: l10n.t({ message: 'Done', comment: ['The end of the agent\'s turn'] }), cancelled: l10n.t({ message: 'Stopped', comment: ['The end of the agent\'s turn, stopped by the user'] }), max_tokens: l10n.t('Stopped: the agent reached its token limit'),
  max_turn_requests: l10n.t('Stopped: the agent reached its request limit for this turn'), refusal: l10n.t('The agent refused to continue'),
};
function stopText(stopReason: string): string {
  return STOP_REASONS[stopReason] ?? l10n.t('Turn ended: {0}', stopReason.replace(/_/g, ' '));
}
const ACTION_LABELS = { restart: l10n.t('Restart agent'), retry: l10n.t('Retry'), openSettings: l10n.t('Open settings'), authenticate: l10n.t('Sign in'), showLog: l10n.t('Show log') };
const AGENT_STATUS_LABELS: Record<ChatStatus['status'], string> = {
  stopped: l10n.t({ message: 'stopped', comment: ['The agent status after its name in the status line'] }),
  starting: l10n.t({ message: 'starting', comment: ['The agent status after its name in the status line'] }),
  ready: l10n.t({ message: 'running', comment: ['The agent status after its name in the status line'] }),
  error: l10n.t({ message: 'error', comment: ['The agent status after its name in the status line'] }),
};
const PRIORITY_LABELS: Record<string, string> = {
  high: l10n.t({ message: 'high', comment: ['A plan entry\'s priority'] }), medium: l10n.t({ message: 'medium', comment: ['A plan entry\'s priority'] }),
  low: l10n.t({ message: 'low', comment: ['A plan entry\'s priority'] }),
};
/** A tool call's or plan entry's status, in words. */
function toolStatusText(status: string): string {
  switch (status) {
    case 'pending': return l10n.t('pending');
    case 'in_progress': return l10n.t('in progress');
    case 'completed': return l10n.t('completed');
    case 'failed': return l10n.t('failed');
    case 'cancelled': return l10n.t('cancelled');
    case 'unfinished': return l10n.t({ message: 'no result reported', comment: 'A tool call\'s status when the agent ended its turn without saying how the call ended' });
    default: return status.replace('_', ' ');
  }
}
/** The title of a write held for review. */
function wantsTo(agentName: string, isNewFile: boolean, name: string): string {
  return isNewFile ? l10n.t('{0} wants to create {1}', agentName, name) : l10n.t('{0} wants to edit {1}', agentName, name);
}
const TOOL_ICONS: Record<string, string> = {
  read: 'file', edit: 'edit', delete: 'trash', move: 'arrow-swap', search: 'search', execute: 'terminal', think: 'lightbulb',
  fetch: 'globe', switch_mode: 'settings-gear', other: 'tools',
};
const STATUS_ICONS: Record<string, string> = { pending: 'circle-outline', in_progress: 'loading codicon-modifier-spin', completed: 'check', failed: 'error', cancelled: 'circle-slash', unfinished: 'question' };

function buildTool(itemId: string, t: ToolCallView): HTMLElement {
  const el = h('article', `tool status-${t.status}`);
  labelWithTitle(el, t.title, title => l10n.t('Tool call {0}, {1}', title, toolStatusText(t.status)));
  const head = h('div', 'tool-head');
  head.append(h('span', `codicon codicon-${TOOL_ICONS[t.kind] ?? 'tools'}`, { 'aria-hidden': 'true' }), titleEl('span', 'tool-title', t.title || l10n.t('Tool call')),
    h('span', `tool-status codicon codicon-${STATUS_ICONS[t.status]}`, { role: 'img', title: toolStatusText(t.status), 'aria-label': toolStatusText(t.status) }));
  el.append(head);
  t.content.forEach((c, index) => el.append(buildToolContent(itemId, c, index, t.status)));
  // The whole output, from memory or from disk, in an editor.
  if (t.content.some(c => c.type === 'text')) el.append(button(l10n.t('Open output'), 'secondary small tool-open', () => send({ type: 'item/openText', tab: activeTab, itemId })));
  if (t.agentTerminal) {
    const key = `${activeTab}/${t.agentTerminal.key}`;
    const box = h('div', 'terminal agent-terminal', { 'data-terminal': key });
    agentTerminalViews.set(box, t.agentTerminal);
    fillTerminal(box, key, t.agentTerminal);
    el.append(box);
  } else if (t.output) el.append(buildCommandOutput(t.output, t.status));
  if (t.locations.length) {
    const locs = h('div', 'locations');
    for (const loc of t.locations) {
      const label = escapeBidi(loc.path.split(/[\\/]/).pop()!) + (loc.line ? `:${loc.line}` : '');
      const a = h('a', 'location', { href: '#', title: escapeBidi(loc.path) }, label);
      a.addEventListener('click', e => { e.preventDefault(); send({ type: 'location/open', path: loc.path, line: loc.line ?? null }); });
      locs.append(a);
    }
    el.append(locs);
  }
  if (t.rawInput || t.rawOutput) {
    const raw = h('details', 'raw', { 'data-k': 'raw' });
    raw.append(h('summary', '', {}, l10n.t('Raw input/output')));
    if (t.rawInput) raw.append(h('div', 'raw-label', {}, l10n.t('Input')), h('pre', 'raw-body', {}, t.rawInput));
    if (t.rawOutput) raw.append(h('div', 'raw-label', {}, l10n.t('Output')), h('pre', 'raw-body', {}, t.rawOutput));
    el.append(raw);
  }
  return el;
}

/** What a diff is: proposed and held for the user's answer, or already written by the agent (undoable). */
function diffState(status: ToolCallView['status'] | 'permission' | 'allowed' | 'refused'): { text: string; cls: string } | undefined {
  switch (status) {
    case 'allowed': return { text: l10n.t('Allowed: the agent writes this change itself; keep or undo it under the changed files once written.'), cls: 'applied' };
    case 'refused': return { text: l10n.t('Not allowed: not written.'), cls: 'not-applied' };
    case 'permission': return { text: l10n.t('Not written yet: if you allow it, the agent writes this change itself (undoable afterwards).'), cls: 'held' };
    case 'completed': return { text: l10n.t('Written by the agent: keep or undo it under the changed files.'), cls: 'applied' };
    case 'failed': case 'cancelled': return { text: l10n.t('Not written.'), cls: 'not-applied' };
    default: return { text: l10n.t('Proposed: not written yet.'), cls: 'held' };
  }
}

/** Command output carried in rawOutput (Codex): shown like a terminal, stderr marked. */
function buildCommandOutput(out: NonNullable<ToolCallView['output']>, status: ToolCallView['status']): HTMLElement {
  const box = h('div', 'terminal command-output');
  const head = h('div', 'terminal-head');
  const title = out.exitCode === null ? (status === 'completed' || status === 'failed' ? l10n.t('Output (finished)') : l10n.t('Output (running)')) : l10n.t('Output (exit code {0})', out.exitCode);
  head.append(h('span', 'codicon codicon-terminal', { 'aria-hidden': 'true' }), h('span', '', {}, title));
  const pre = h('pre', 'terminal-tail');
  if (out.stdout) pre.append(document.createTextNode(out.stdout));
  if (out.stderr) pre.append(h('span', 'stderr', { title: 'stderr' }, out.stderr));
  if (!out.stdout && !out.stderr) pre.append(h('span', 'hunk', {}, l10n.t('(no output)')));
  box.append(head, pre);
  return box;
}

/** A tool or permission title: the agent's markdown, inline only, with workspace-relative paths. */
function titleEl(tag: string, className: string, title: string): HTMLElement {
  const el = h(tag, `${className} markdown`, { title: escapeBidi(title) });
  setMarkdown(el, relativizePaths(escapeBidi(title), roots), true);
  return el;
}

/** The same title as plain text (labels, announcements). */
function titleText(md: MarkdownModule, title: string): string {
  const el = document.createElement('span');
  el.innerHTML = md.renderInlineMarkdown(relativizePaths(escapeBidi(title), roots));
  return el.textContent ?? '';
}

/** `el`'s aria-label, made with a title's text (its markdown source until the renderer has loaded). */
function labelWithTitle(el: HTMLElement, title: string, label: (title: string) => string): void {
  withMarkdown(md => el.setAttribute('aria-label', label(titleText(md, title))),
    () => el.setAttribute('aria-label', label(relativizePaths(escapeBidi(title), roots))));
}

function buildToolContent(itemId: string, c: ToolContentView, index: number, status: Parameters<typeof diffState>[0]): HTMLElement {
  switch (c.type) {
    case 'text': {
      const body = h('div', 'tool-text markdown');
      setMarkdown(body, c.text);
      return body;
    }
    case 'diff': {
      const box = h('div', 'diff');
      const head = h('div', 'diff-head');
      head.append(h('span', 'diff-path', { title: escapeBidi(c.path) }, c.isNew ? l10n.t('{0} (new file)', escapeBidi(c.path.split(/[\\/]/).pop()!)) : escapeBidi(c.path.split(/[\\/]/).pop()!)),
        h('span', 'diff-added', {}, `+${c.preview.added}`), h('span', 'diff-removed', {}, `-${c.preview.removed}`),
        button(l10n.t('Open diff'), 'secondary small', () => send({ type: 'diff/open', tab: activeTab, itemId, index: c.index ?? index })));
      const pre = h('pre', 'diff-lines');
      for (const line of c.preview.lines) {
        pre.append(h('span', line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : line.startsWith('@@') ? 'hunk' : 'ctx', {}, line + '\n'));
      }
      if (c.preview.truncated) pre.append(h('span', 'hunk', {}, '…'));
      const state = diffState(status);
      box.append(head);
      if (state) box.append(h('div', `diff-state ${state.cls}`, {}, state.text));
      if (c.unlocated) box.append(h('div', 'diff-unlocated', { role: 'note' }, l10n.t('Could not find this edit in the file ({0}): shown without line numbers.', c.unlocated)));
      box.append(pre);
      return box;
    }
    case 'terminal': {
      const box = h('div', 'terminal', { 'data-terminal': c.terminalId });
      fillTerminal(box, c.terminalId);
      return box;
    }
  }
}

/**
 * A terminal's card: a client terminal, or (`agent`) a command the agent ran itself, shown with its
 * command line and exit. The tail keeps its colours.
 */
function fillTerminal(box: HTMLElement, terminalId: string, agent?: NonNullable<ToolCallView['agentTerminal']>): void {
  const tail = terminalTails.get(terminalId);
  const head = h('div', 'terminal-head');
  const exited = tail?.exited || !!agent?.exit;
  const state = agent?.exit ? (agent.exit.signal ? l10n.t('killed by {0}', agent.exit.signal) : agent.exit.exitCode === null ? l10n.t('finished') : l10n.t('exit code {0}', agent.exit.exitCode)) : exited ? l10n.t('finished') : l10n.t('running');
  head.append(h('span', 'codicon codicon-terminal', { 'aria-hidden': 'true' }), h('span', '', {}, agent ? l10n.t('Ran by the agent ({0})', state) : exited ? l10n.t('Terminal (finished)') : l10n.t('Terminal')),
    button(agent ? l10n.t('Show in terminal') : l10n.t('Show terminal'), 'secondary small', () => send({ type: 'terminal/reveal', terminalId })));
  box.replaceChildren(head);
  if (agent?.command) {
    const line = h('div', 'terminal-command', { title: agent.cwd ? l10n.t('in {0}', agent.cwd) : '' });
    line.append(h('span', 'prompt-sign', { 'aria-hidden': 'true' }, '$ '), h('code', '', {}, agent.command));
    box.append(line);
  }
  const pre = h('pre', 'terminal-tail');
  for (const span of sgrSpans(escapeBidi(tail?.text ?? ''))) pre.append(styledRun(span));
  box.append(pre);
}

/** One run of terminal text in its colours: the theme's ANSI colours, or an explicit rgb (CSSOM, allowed by the CSP). */
function styledRun(span: ReturnType<typeof sgrSpans>[number]): Node {
  const s = span.style;
  if (!Object.values(s).some(v => v !== undefined)) return document.createTextNode(span.text);
  const el = h('span', '', {}, span.text);
  const [fg, bg] = s.inverse ? [s.bg, s.fg ?? 'fg'] : [s.fg, s.bg];
  for (const [which, c] of [['fg', fg], ['bg', bg]] as const) {
    if (typeof c === 'number') el.classList.add(`ansi-${which}-${c}`);
    else if (c === 'fg') el.classList.add('ansi-bg-default-fg');
    else if (c) el.style[which === 'fg' ? 'color' : 'backgroundColor'] = c;
  }
  if (s.bold) el.classList.add('ansi-bold');
  if (s.dim) el.classList.add('ansi-dim');
  if (s.italic) el.classList.add('ansi-italic');
  if (s.underline) el.classList.add('ansi-underline');
  return el;
}

function buildPermission(item: Extract<Item, { kind: 'permission' }>): HTMLElement {
  const p = item.permission;
  // Focusable: number keys answer this card only while it has focus.
  const el = h('article', `permission${p.late ? ' late' : ''}`, { tabindex: '-1' });
  labelWithTitle(el, p.title, title => l10n.t('Permission request: {0}', title));
  if (p.late) el.append(lateNote());
  if (p.from) el.append(h('div', 'permission-from', {}, childAsks(p.from)));
  el.append(titleEl('div', 'permission-title', p.title));
  const allowed = p.outcome !== undefined && !!p.options.find(o => o.name === p.outcome)?.kind.startsWith('allow');
  // Once allowed, the card follows the tool call: written when it completed, not written when it failed.
  const ended = p.toolStatus === 'completed' || p.toolStatus === 'failed' || p.toolStatus === 'cancelled' ? p.toolStatus : undefined;
  p.content?.forEach((c, index) => el.append(buildToolContent(item.id, c, index, p.outcome === undefined ? 'permission' : !allowed ? 'refused' : ended ?? 'allowed')));
  if (p.outcome !== undefined) {
    el.classList.add('answered');
    el.append(h('div', 'permission-outcome', {}, p.outcome === 'cancelled' ? l10n.t('Not answered (cancelled)') : l10n.t('You chose: {0}', p.outcome)));
    return el;
  }
  el.tabIndex = 0;
  // Shown for what they do: order, style and label come from the kind; a contradicting name is flagged.
  const options = orderOptions(p.options);
  const row = h('div', 'actions', { role: 'group', 'aria-label': l10n.t('Options') });
  options.forEach((o, i) => {
    const label = o.misleading ? l10n.t('{0} (named “{1}”)', kindText(o.kind), o.name) : o.name;
    // Only a one-time allow is the primary button; an allow for good is a secondary one.
    const style = isPrimaryOption(o.kind) ? 'allow' : isReject(o.kind) ? 'secondary reject' : isAllow(o.kind) ? 'secondary allow-always' : 'secondary';
    // No option is pre-selected or focused: a stray Enter must never grant anything.
    row.append(button(`${i + 1}. ${label}`, style + (o.misleading ? ' misleading' : ''), () =>
      send({ type: 'permission/answer', tab: activeTab, itemId: item.id, optionId: o.optionId }), l10n.t({ message: '{0}. {1}: {2} (key {0})', args: [i + 1, label, kindText(o.kind)], comment: ['A permission button\'s name: {0} its number (the key that answers), {1} its label, {2} what it does (Allow once…)'] })));
  });
  el.append(row);
  if (options.some(o => o.misleading)) {
    el.append(h('div', 'permission-warning', { role: 'note' }, l10n.t("Careful: an option's name says the opposite of what it does. Each button shows what it does.")));
  }
  el.append(h('div', 'hint', {}, l10n.t('With this card focused, press 1–{0} to answer. Esc stops the turn.', options.length)));
  el.addEventListener('keydown', e => {
    if (!el.contains(e.target as Node) || e.ctrlKey || e.metaKey || e.altKey) return;
    const option = options[Number(e.key) - 1];
    if (/^[1-9]$/.test(e.key) && option) {
      e.preventDefault();
      send({ type: 'permission/answer', tab: activeTab, itemId: item.id, optionId: option.optionId });
    }
  });
  return el;
}

// Text shown plain while the markdown renderer loaded is rendered when it arrives; the transcript
// keeps to its end if it was there.
onMarkdownLoaded(apply => {
  const stick = transcript.isAtEnd();
  apply();
  if (stick) transcriptEl.scrollTop = transcriptEl.scrollHeight;
});

// Links and copy buttons inside rendered markdown.
transcriptEl.addEventListener('click', e => {
  const target = e.target as HTMLElement;
  const copy = target.closest('button.copy');
  if (copy) {
    const code = copy.parentElement?.querySelector('code')?.textContent ?? '';
    void navigator.clipboard.writeText(code).then(() => { copy.classList.replace('codicon-copy', 'codicon-check'); });
    return;
  }
  const a = target.closest('.markdown a') as HTMLAnchorElement | null;
  if (a) {
    e.preventDefault();
    const href = a.getAttribute('href');
    if (href) send({ type: 'link/open', href });
  }
});

// ---- agent writes waiting for review (the diff editor has the same Accept / Reject) -------------

function renderWrites(writes: readonly PendingWriteView[]): void {
  keepFocus(writesEl, () => buildWrites(writes), () => promptEl);
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

function renderChanges(turns: readonly TurnChangesView[]): void {
  keepFocus(changesEl, () => buildChanges(turns), () => promptEl);
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

// ---- tabs, status, session state ---------------------------------------------------------------

function setTabs(list: readonly TabInfo[], active: string | undefined): void {
  // Arrow keys select a tab: the focus follows the selection into the rebuilt strip.
  const onTab = document.activeElement?.getAttribute('role') === 'tab' && tabsEl.contains(document.activeElement);
  keepFocus(tabsEl, () => buildTabs(list, active));
  if (onTab) tabsEl.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')?.focus();
  renderStatus();
}

function buildTabs(list: readonly TabInfo[], active: string | undefined): void {
  tabs = list;
  activeTab = active;
  tabsEl.replaceChildren();
  for (const tab of list) {
    // A tab holds no other control (screen readers read a tab as one thing): its close button sits
    // beside it, for the mouse; the keyboard closes the focused tab with Delete.
    const el = h('div', `tab state-${tab.state}${tab.id === active ? ' active' : ''}`);
    const label = h('div', 'tab-label', {
      role: 'tab', 'aria-selected': String(tab.id === active), tabindex: tab.id === active ? '0' : '-1',
      title: l10n.t('{0} — {1} ({2}). Delete closes it.', tab.title, tab.agentName, tabStateText(tab, STATE_LABELS)),
    });
    // Each conversation shows its agent (agents run side by side; a reload keeps it).
    label.append(h('span', `codicon codicon-${STATE_ICONS[tab.state]}`, { 'aria-hidden': 'true' }), h('span', 'tab-title', {}, tab.title),
      ...(tab.agentName && !tab.title.includes(tab.agentName) ? [h('span', 'tab-agent', {}, tab.agentName)] : []),
      h('span', 'visually-hidden', {}, `, ${tabStateText(tab, STATE_LABELS)}`));
    const close = h('button', 'tab-close codicon codicon-close', { type: 'button', title: l10n.t('Close {0}', tab.title), 'aria-hidden': 'true', tabindex: '-1' });
    close.addEventListener('click', e => { e.stopPropagation(); send({ type: 'tab/close', tab: tab.id }); });
    el.append(label, close);
    el.addEventListener('click', () => send({ type: 'tab/select', tab: tab.id }));
    label.addEventListener('keydown', e => {
      const i = tabs.findIndex(t => t.id === tab.id);
      if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
        const next = tabs[(i + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
        send({ type: 'tab/select', tab: next.id });
      } else if (e.key === 'Enter' || e.key === ' ') send({ type: 'tab/select', tab: tab.id });
      else if (e.key === 'Delete') send({ type: 'tab/close', tab: tab.id });
      else return;
      e.preventDefault();
    });
    tabsEl.append(el);
  }
}

// Beside the tab list (a tab list holds tabs only).
$<HTMLElement>('tab-actions').append(button('', 'tab-new codicon codicon-add', () => send({ type: 'tab/new' }), l10n.t('New conversation')),
  button('', 'tab-new codicon codicon-history', () => send({ type: 'sessions/browse' }), l10n.t("The agent's sessions")));

const STATE_ICONS = { idle: 'comment', starting: 'loading codicon-modifier-spin', busy: 'loading codicon-modifier-spin', waiting: 'bell-dot', detached: 'debug-disconnect' } as const;
const STATE_LABELS = { idle: l10n.t('idle'), starting: l10n.t('starting a session'), busy: l10n.t('working'), waiting: l10n.t('waiting for your answer'), detached: l10n.t('agent not running') };

let busy = false;
function setBusy(b: boolean): void {
  busy = b;
  stopEl.hidden = !b;
  // While the agent works, Enter queues the message (sent when the turn ends; see queue.ts).
  sendEl.textContent = b ? l10n.t('Queue') : l10n.t('Send');
  sendEl.title = b ? l10n.t("Queue (Enter): sent when the agent's turn ends") : l10n.t('Send (Enter)');
}

let chatStatus: ChatStatus = { agentName: undefined, status: 'stopped', detail: '' };

function setStatus(status: ChatStatus, abs: PromptAbilities): void {
  abilities = abs;
  chatStatus = status;
  agentEl.textContent = status.agentName ?? l10n.t('Choose agent');
  setTabs(tabs, activeTab);
}

/** The status line and the composer's Send / Stop: from the agent's status and the shown tab's state. */
function renderStatus(): void {
  const status = chatStatus;
  const state = tabs.find(t => t.id === activeTab)?.state;
  // The agent runs, but this conversation's session is still opening (real agents take seconds):
  // the prompt waits for it.
  const opening = state === 'starting' && (status.status === 'ready' || status.status === 'stopped');
  // A conversation stays with its agent: when another agent runs, the line says whose this one is.
  const tabAgent = tabs.find(t => t.id === activeTab)?.agentName;
  const otherAgent = !opening && status.status === 'ready' && tabAgent && status.agentName && tabAgent !== status.agentName;
  // While the picker is open nothing starts yet: the host's detail says it waits for the choice.
  let text = opening ? (status.status === 'ready' ? l10n.t('Starting a session with {0}…', status.agentName ?? '') : status.detail || l10n.t('Starting the agent…'))
    : otherAgent ? l10n.t({ message: 'This conversation is with {0} (not running; {1} is running)', args: [tabAgent, status.agentName!], comment: ['The status line of a conversation whose agent is not the one running: {0} its agent, {1} the running agent'] })
    : status.detail || (status.agentName ? l10n.t({ message: '{0} · {1}', args: [status.agentName, AGENT_STATUS_LABELS[status.status]], comment: ['The status line: {0} is the agent\'s name, {1} its status (running, stopped…)'] }) : l10n.t('No agent running'));
  statusEl.className = `status-${opening ? 'starting' : status.status}`;
  const waitingIn = tabs.find(t => t.id === activeTab);
  if (waitingIn?.waitingIn) text = `${text} · ${tabStateText(waitingIn, STATE_LABELS)}`;
  // The status line is a live region: only a change is read out.
  if (statusEl.textContent !== text) statusEl.textContent = text;
  setBusy(status.status === 'starting' || state === 'starting' || state === 'busy' || state === 'waiting');
  // While the agent itself starts (a first download can take minutes), Stop cancels the start.
  const starting = status.status === 'starting';
  stopEl.textContent = starting ? l10n.t('Cancel') : l10n.t('Stop');
  stopEl.title = starting ? l10n.t('Cancel the start of the agent (Esc)') : l10n.t("Stop the agent's turn (Esc)");
}

function setMeta(m: SessionMeta | undefined): void {
  meta = m;
  // Plans: replaced whole on every update (webview/plans.ts).
  renderPlans(planEl, m, { priority: PRIORITY_LABELS, status: toolStatusText });
  // Modes: one picker (a `mode` config option supersedes the legacy modes), and what holds in this mode.
  const control = m ? modeControl(m) : undefined;
  modeEl.hidden = !control;
  if (control) renderModes(control);
  renderModeNote(control);
  // Config options (the mode option is in the mode picker).
  configEl.replaceChildren(...(m?.configOptions ?? []).filter(o => !(control?.via === 'config' && o.id === control.configId)).map(buildConfigOption));
  // Context usage.
  const usage = m?.usage;
  usageEl.hidden = !usage;
  if (usage) {
    const pct = usage.size ? Math.min(100, Math.round((usage.used / usage.size) * 100)) : 0;
    // The conversation's own context (when its agent reports it), its helpers' tokens apart, the cost with theirs.
    const helpers = usage.helpers;
    usageEl.textContent = [
      usage.size ? `${compact(usage.used)} / ${compact(usage.size)}` : '',
      helpers ? l10n.t({ message: '+{0} helpers', args: [compact(helpers.tokens)], comment: ['Tokens used by the conversation\'s helper (child) agents, shown after its own context usage'] }) : '',
      usage.cost ? `${usage.cost.amount.toFixed(2)} ${usage.cost.currency}` : '',
    ].filter(Boolean).join(' · ');
    usageEl.setAttribute('aria-valuenow', String(pct));
    usageEl.title = [
      usage.size ? l10n.t('Context: {0} of {1} tokens ({2}%)', usage.used.toLocaleString(uiLanguage), usage.size.toLocaleString(uiLanguage), pct) : '',
      helpers ? l10n.t({ message: 'Helpers: {0} tokens in {1} helper sessions', args: [helpers.tokens.toLocaleString(uiLanguage), helpers.count], comment: ['Tokens used by the conversation\'s helper (child) agents: {0} tokens, {1} how many helpers'] }) : '',
      usage.cost ? l10n.t('Cost: {0} {1}', usage.cost.amount.toFixed(2), usage.cost.currency) : '',
    ].filter(Boolean).join('\n');
    usageEl.className = pct >= 90 ? 'high' : '';
  }
}

function renderModes(control: ModeControl): void {
  const modes = control.modes.some(x => x.id === control.current) ? control.modes : [...control.modes, currentMode(control)];
  modeEl.replaceChildren(...modes.map(mode => {
    const o = document.createElement('option');
    o.value = mode.id;
    // The modes that write without asking say so in the list itself.
    o.textContent = writesWithoutAsking(mode)
      ? l10n.t({ message: '{0} (writes without asking)', args: [mode.name], comment: ['A mode in the mode picker whose edits are written with no permission request; {0} is its name'] })
      : mode.name;
    o.title = mode.description ?? '';
    o.selected = mode.id === control.current;
    return o;
  }));
}

/** Above the prompt box while the conversation is in a mode that writes without asking: what holds, and the way back. */
function renderModeNote(control: ModeControl | undefined): void {
  const mode = control && currentMode(control);
  if (!control || !mode || !writesWithoutAsking(mode)) { modeNoteEl.hidden = true; modeNoteEl.replaceChildren(); return; }
  const asking = control.modes.find(x => modeBehaviour(x) === 'asks');
  modeNoteEl.replaceChildren(
    h('span', 'codicon codicon-warning', { 'aria-hidden': 'true' }),
    h('span', '', {}, l10n.t({ message: '{0} writes without asking. Edits are written first, then listed for Keep / Undo.', args: [mode.name], comment: ['Shown above the prompt box; {0} is the agent\'s current mode. Keep and Undo are the buttons of the changed-files list.'] })),
  );
  if (asking) modeNoteEl.append(button(l10n.t({ message: 'Ask first ({0})', args: [asking.name], comment: ['Switches the agent to its mode that asks before each edit; {0} is that mode\'s name'] }), 'secondary', () => setModeTo(control, asking.id)));
  modeNoteEl.hidden = false;
}

function setModeTo(control: ModeControl, modeId: string): void {
  if (control.via === 'config' && control.configId !== undefined) send({ type: 'config/set', configId: control.configId, value: modeId });
  else send({ type: 'mode/set', modeId });
}

modeEl.addEventListener('change', () => {
  const control = meta ? modeControl(meta) : undefined;
  if (control) setModeTo(control, modeEl.value);
});

function buildConfigOption(option: SessionConfigOption): HTMLElement {
  if (option.type === 'boolean') {
    const label = h('label', 'config-bool', { title: option.description ?? option.name });
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = option.currentValue;
    box.addEventListener('change', () => send({ type: 'config/set', configId: option.id, value: box.checked }));
    label.append(box, document.createTextNode(option.name));
    return label;
  }
  const select = document.createElement('select');
  select.setAttribute('aria-label', option.name);
  select.title = option.description ?? option.name;
  for (const entry of option.options) {
    if ('group' in entry) {
      const group = document.createElement('optgroup');
      group.label = entry.name;
      for (const o of entry.options) group.append(optionEl(o.value, o.name, option.currentValue));
      select.append(group);
    } else {
      select.append(optionEl(entry.value, entry.name, option.currentValue));
    }
  }
  select.addEventListener('change', () => send({ type: 'config/set', configId: option.id, value: select.value }));
  return select;
}

function optionEl(value: string, name: string, current: string): HTMLOptionElement {
  const o = document.createElement('option');
  o.value = value; o.textContent = name; o.selected = value === current;
  return o;
}

// ---- composer: send, stop, slash commands, @ mentions, pasted images ---------------------------

function submit(): void {
  const text = promptEl.value;
  if (!text.trim() && !images.length) return;
  send({ type: 'prompt/send', text, mentions: [...mentions], images: [...images] });
  // The answer will be markdown: the renderer loads while the agent thinks.
  loadMarkdown();
  promptEl.value = '';
  mentions.clear();
  images.length = 0;
  renderAttachments();
  hideCompletions();
}

$<HTMLFormElement>('composer').addEventListener('submit', e => { e.preventDefault(); submit(); });
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

// What is typed and not sent is kept by the host: VS Code discards this page when the view is
// hidden, and a window reload starts a new one. Each change is sent at once (a message still on its
// way when the page is discarded arrives; one sent from a timer or a blur handler may never be
// sent); only a large draft (pasted images, a long text) is sent at most once per DRAFT_MS while
// typing, its last state always following, and leaving the page sends it at once.
const DRAFT_MS = 250;
const DRAFT_AT_ONCE_CHARS = 64 * 1024;
let draftTimer: ReturnType<typeof setTimeout> | undefined;
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
  send({ type: 'composer/draft', text: promptEl.value, mentions: [...mentions], images: [...images] });
}
const flushDraft = () => { if (draftTimer) sendDraft(); };
// Clicking elsewhere in VS Code (another view) blurs the page before VS Code discards it.
window.addEventListener('blur', flushDraft);
window.addEventListener('pagehide', flushDraft);
document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') flushDraft(); });
document.addEventListener('keydown', e => {
  if (e.key === 'Escape' && busy && completionsEl.hidden && !e.defaultPrevented && (e.target as HTMLElement).tagName !== 'SELECT') send({ type: 'turn/cancel' });
});
stopEl.addEventListener('click', () => send({ type: 'turn/cancel' }));
agentEl.addEventListener('click', () => send({ type: 'agent/pick' }));
document.getElementById('parallel')?.addEventListener('click', () => send({ type: 'parallel/open' }));

function updateCompletions(): void {
  const text = promptEl.value.slice(0, promptEl.selectionStart);
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

function renderAttachments(): void {
  saveDraft();
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

// The transcript keeps to its end when it gets shorter because something appeared below it (the
// changed-files list, a review card, the plan, a taller prompt box), if it was at its end before.
// "At its end" is judged with the height the user last saw (as of the last layout), so a list that
// appeared below since then does not count as the user having scrolled up.
new ResizeObserver(() => {
  const wasAtEnd = transcript.shownHeight === 0 || transcript.isAtEnd();
  transcript.shownHeight = transcriptEl.clientHeight;
  if (wasAtEnd) transcriptEl.scrollTop = transcriptEl.scrollHeight;
}).observe(transcriptEl);

// ---- helpers -----------------------------------------------------------------------------------

function compact(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${Math.round(n / 1e3)}k` : String(n);
}


initQueue(send);
send({ type: 'view/ready' });
promptEl.focus();
