// Child agents (helpers the agent started, ACP `subagents`) in the transcript: a card per child
// (title, task, state, elapsed time, tool calls; Stop when the child offers it), its own items under
// it (`inChild`: shown when its card is expanded, nested children under their parent's card), and
// messages between sessions with who sent them to whom. Every one is an ordinary transcript item, so
// the transcript's virtualization handles them like any other.
import * as l10n from '@vscode/l10n';
import type { ChildState, ChildView } from '../src/common/childSessions';
import type { TabInfo, ViewMessage } from '../src/common/protocol';
import type { Item } from '../src/common/transcript';
import { button, h } from './dom';
import { setMarkdown } from './lazyMarkdown';
import type { Rendered } from './transcriptView';

type ChildItem = Extract<Item, { kind: 'child' | 'sessionMessage' }>;

const STATE_TEXT: Record<ChildState, string> = {
  running: l10n.t({ message: 'running', comment: ['The state of a helper agent'] }),
  idle: l10n.t({ message: 'idle', comment: ['The state of a helper agent whose work stopped'] }),
  needsYou: l10n.t({ message: 'needs you', comment: ['The state of a helper agent waiting for the user\'s answer'] }),
  unknown: l10n.t({ message: 'unknown', comment: ['The state of a helper agent the agent cannot observe'] }),
  unset: l10n.t({ message: 'not reported', comment: ['The state of a helper agent the agent did not report'] }),
};
const STATE_ICON: Record<ChildState, string> = { running: 'loading codicon-modifier-spin', idle: 'pass', needsYou: 'bell-dot', unknown: 'question', unset: 'circle-large-outline' };

/** Children whose card is expanded (their own items shown). */
const expanded = new Set<string>();
/** A nested child → the child it runs under. */
const parents = new Map<string, string>();

/** The tab's state in words; "waiting for you (in <child>)" when a child agent asked. */
export function tabStateText(tab: TabInfo, labels: Record<TabInfo['state'], string>): string {
  return tab.state === 'waiting' && tab.waitingIn
    ? l10n.t({ message: 'waiting for you (in {0})', args: [tab.waitingIn], comment: ['A conversation waits for the user\'s answer to a helper agent; {0} is the helper\'s title'] })
    : labels[tab.state];
}

/** A permission card's line naming the child agent that asks, and its task. */
export function childAsks(from: { title: string; task?: string }): string {
  return from.task
    ? l10n.t({ message: 'Asked by the helper {0} ({1})', args: [from.title, from.task], comment: ['On a permission request of a helper agent: {0} its title, {1} its task'] })
    : l10n.t({ message: 'Asked by the helper {0}', args: [from.title], comment: ['On a permission request of a helper agent: {0} its title'] });
}

/** Wraps the transcript's `build`: child cards and messages between sessions, and items of a child hidden under its card. */
export function withChildAgents(build: (item: Item) => Rendered, send: (m: ViewMessage) => void, tab: () => string | undefined): (item: Item) => Rendered {
  return item => {
    const r = item.kind === 'child' || item.kind === 'sessionMessage' ? buildChildItem(item, send, tab) : build(item);
    if (item.inChild !== undefined) {
      r.el.classList.add('in-child');
      r.el.dataset.inChild = item.inChild;
      r.el.hidden = !shown(item.inChild);
    }
    return r;
  };
}

/** A child's items are shown when its card and every card above it are expanded. */
function shown(childId: string): boolean {
  for (let id: string | undefined = childId, n = 0; id !== undefined && n < 10; id = parents.get(id), n++) if (!expanded.has(id)) return false;
  return true;
}

function toggle(childId: string, root: HTMLElement): void {
  if (expanded.has(childId)) expanded.delete(childId); else expanded.add(childId);
  for (const el of root.querySelectorAll<HTMLElement>('[data-in-child]')) el.hidden = !shown(el.dataset.inChild!);
  for (const b of root.querySelectorAll<HTMLElement>('button.child-toggle')) {
    if (b.dataset.child === childId) b.setAttribute('aria-expanded', String(expanded.has(childId)));
  }
}

function buildChildItem(item: ChildItem, send: (m: ViewMessage) => void, tab: () => string | undefined): Rendered {
  if (item.kind === 'sessionMessage') {
    const el = h('article', 'session-message', { 'aria-label': l10n.t({ message: 'Message from {0} to {1}', args: [item.from, item.to], comment: ['A message between the agent and a helper agent'] }) });
    el.append(h('div', 'session-message-route', {}, `${item.from} → ${item.to}`));
    const body = h('div', 'body markdown');
    setMarkdown(body, item.text);
    el.append(body);
    return { el, item };
  }
  const c = item.child;
  if (c.depth > 1) parents.set(c.sessionId, c.parentSessionId);
  const el = h('article', `child-card state-${c.state}`, { 'aria-label': l10n.t({ message: 'Helper agent {0}, {1}', args: [c.title, STATE_TEXT[c.state]], comment: ['A helper agent\'s card: {0} its title, {1} its state'] }) });
  const head = h('div', 'child-head');
  const toggleBtn = button('', `child-toggle codicon codicon-chevron-right`, () => toggle(c.sessionId, el.closest('#transcript') ?? document.body),
    l10n.t({ message: 'Show or hide the work of {0}', args: [c.title], comment: ['The button that expands a helper agent\'s card'] }));
  toggleBtn.dataset.child = c.sessionId;
  toggleBtn.setAttribute('aria-expanded', String(expanded.has(c.sessionId)));
  head.append(toggleBtn, h('span', `codicon codicon-${STATE_ICON[c.state]}`, { 'aria-hidden': 'true' }), h('span', 'child-title', {}, c.title),
    h('span', 'child-state', {}, c.stopReason && c.state === 'idle' ? `${STATE_TEXT.idle} (${stopText(c.stopReason)})` : STATE_TEXT[c.state]));
  const facts = h('span', 'child-facts');
  const elapsed = h('span', 'child-elapsed', { 'data-started': String(c.startedAt), ...(c.endedAt !== undefined ? { 'data-ended': String(c.endedAt) } : {}) }, elapsedText(c));
  facts.append(elapsed, h('span', '', {}, ` · ${l10n.t({ message: '{0} tool calls', args: [c.toolCalls], comment: ['How many tool calls a helper agent made'] })}`));
  head.append(facts);
  if (c.canCancel && (c.state === 'running' || c.state === 'needsYou')) {
    head.append(button(l10n.t('Stop'), 'secondary child-stop', () => send({ type: 'child/cancel', tab: tab(), childId: c.sessionId }),
      l10n.t({ message: 'Stop {0}', args: [c.title], comment: ['Stops one helper agent'] })));
  }
  head.append(button('', 'child-open codicon codicon-link-external', () => send({ type: 'child/open', tab: tab(), childId: c.sessionId }),
    l10n.t({ message: 'Open the work of {0} in its own tab', args: [c.title], comment: ['The button on a helper agent\'s card that opens its transcript in an editor tab'] })));
  el.append(head);
  if (c.task) el.append(h('div', 'child-task', {}, c.task));
  if (c.state === 'running' || c.state === 'needsYou') ticking();
  return { el, item };
}

function stopText(reason: string): string {
  switch (reason) {
    case 'end_turn': return l10n.t({ message: 'done', comment: ['Why a helper agent stopped: it finished'] });
    case 'cancelled': return l10n.t({ message: 'stopped', comment: ['Why a helper agent stopped: it was stopped'] });
    case 'error': return l10n.t({ message: 'failed', comment: ['Why a helper agent stopped: it failed'] });
    default: return reason.replace(/_/g, ' ');
  }
}

function elapsedText(c: Pick<ChildView, 'startedAt' | 'endedAt'>): string {
  const s = Math.max(0, Math.round(((c.endedAt ?? Date.now()) - c.startedAt) / 1000));
  return s < 60 ? l10n.t('{0} s', s) : l10n.t('{0} min {1} s', Math.floor(s / 60), s % 60);
}

let timer: ReturnType<typeof setInterval> | undefined;
/** Running children's elapsed time moves on once a second (stops when none runs). */
function ticking(): void {
  timer ??= setInterval(() => {
    const live = document.querySelectorAll<HTMLElement>('.child-elapsed:not([data-ended])');
    for (const el of live) el.textContent = elapsedText({ startedAt: Number(el.dataset.started) });
    if (!live.length) { clearInterval(timer); timer = undefined; }
  }, 1000);
}
