// A tool call's card: its title and status, its content (text, diffs with what became of them,
// terminals), the output of a command the agent ran itself, its locations and raw input/output.
// Terminal tails arrive apart (`terminal/tail`) and refill every card showing that terminal.
import * as l10n from '@vscode/l10n';
import type { ViewMessage } from '../src/common/protocol';
import type { ToolCallView, ToolContentView } from '../src/common/transcript';
import { escapeBidi } from '../src/common/bidi';
import { sgrSpans } from '../src/common/terminal/sgr';
import { button, h } from './dom';
import { setMarkdown } from './lazyMarkdown';
import { toolStatusText } from './labels';
import { labelWithTitle, titleEl } from './titles';

/** What the cards need of the view: the way to the host, and the conversation shown. */
export interface CardHost {
  send(m: ViewMessage): void;
  tab(): string | undefined;
}

let host: CardHost = { send: () => {}, tab: () => undefined };
const terminalTails = new Map<string, { text: string; exited: boolean }>();
/** The card of a command the agent ran itself → what it shows besides the tail. */
const agentTerminalViews = new WeakMap<HTMLElement, NonNullable<ToolCallView['agentTerminal']>>();

export function initToolCards(cardHost: CardHost): void {
  host = cardHost;
}

/** A terminal's latest tail: every card showing it is refilled. */
export function terminalTail(terminalId: string, text: string, exited: boolean): void {
  terminalTails.set(terminalId, { text, exited });
  for (const el of document.querySelectorAll<HTMLElement>(`[data-terminal="${CSS.escape(terminalId)}"]`)) fillTerminal(el, terminalId, agentTerminalViews.get(el));
}

const TOOL_ICONS: Record<string, string> = {
  read: 'file', edit: 'edit', delete: 'trash', move: 'arrow-swap', search: 'search', execute: 'terminal', think: 'lightbulb',
  fetch: 'globe', switch_mode: 'settings-gear', other: 'tools',
};
const STATUS_ICONS: Record<string, string> = { pending: 'circle-outline', in_progress: 'loading codicon-modifier-spin', completed: 'check', failed: 'error', cancelled: 'circle-slash', unfinished: 'question' };

export function buildTool(itemId: string, t: ToolCallView): HTMLElement {
  const el = h('article', `tool status-${t.status}`);
  labelWithTitle(el, t.title, title => l10n.t('Tool call {0}, {1}', title, toolStatusText(t.status)));
  const head = h('div', 'tool-head');
  head.append(h('span', `codicon codicon-${TOOL_ICONS[t.kind] ?? 'tools'}`, { 'aria-hidden': 'true' }), titleEl('span', 'tool-title', t.title || l10n.t('Tool call')),
    h('span', `tool-status codicon codicon-${STATUS_ICONS[t.status]}`, { role: 'img', title: toolStatusText(t.status), 'aria-label': toolStatusText(t.status) }));
  el.append(head);
  t.content.forEach((c, index) => el.append(buildToolContent(itemId, c, index, t.status)));
  // The whole output, from memory or from disk, in an editor.
  if (t.content.some(c => c.type === 'text')) el.append(button(l10n.t('Open output'), 'secondary small tool-open', () => host.send({ type: 'item/openText', tab: host.tab(), itemId })));
  if (t.agentTerminal) {
    const key = `${host.tab()}/${t.agentTerminal.key}`;
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
      a.addEventListener('click', e => { e.preventDefault(); host.send({ type: 'location/open', path: loc.path, line: loc.line ?? null }); });
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

export function buildToolContent(itemId: string, c: ToolContentView, index: number, status: Parameters<typeof diffState>[0]): HTMLElement {
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
        button(l10n.t('Open diff'), 'secondary small', () => host.send({ type: 'diff/open', tab: host.tab(), itemId, index: c.index ?? index })));
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
    button(agent ? l10n.t('Show in terminal') : l10n.t('Show terminal'), 'secondary small', () => host.send({ type: 'terminal/reveal', terminalId })));
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
