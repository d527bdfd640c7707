// The transcript's cards, one per item: messages, thoughts, tool calls (webview/toolCard.ts),
// permission requests, questions (webview/question.ts), turn ends, notices, compactions and errors.
// Child agents' cards are built by webview/childAgents.ts around these.
import * as l10n from '@vscode/l10n';
import { MESSAGE_DISPLAY_MAX_CHARS, type Item, type ToolCallView } from '../src/common/transcript';
import { isAllow, isPrimaryOption, isReject, kindLabel as kindText, orderOptions } from '../src/common/permissionOptions';
import { uiLanguage } from './l10n';
import { childAsks } from './childAgents';
import { StreamedMarkdown } from './streamedMarkdown';
import type { Rendered } from './transcriptView';
import { button, h } from './dom';
import { buildQuestion } from './question';
import { restoreButton } from './checkpoint';
import { stopText } from './labels';
import { labelWithTitle, titleEl } from './titles';
import { buildTool, buildToolContent, type CardHost, initToolCards } from './toolCard';

let host: CardHost = { send: () => {}, tab: () => undefined };

export function initItems(cardHost: CardHost): void {
  host = cardHost;
  initToolCards(cardHost);
}

export function buildItem(item: Item): Rendered {
  switch (item.kind) {
    case 'user': {
      const el = h('article', 'message user', { 'aria-label': l10n.t('You') });
      const body = h('div', 'body', {}, item.text);
      el.append(h('div', 'who', {}, l10n.t('You')), body, restoreButton(item.id, host.tab(), host.send));
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
      return { el: buildQuestion(item, host.tab(), host.send), item };
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
      for (const action of item.actions) row.append(button(ACTION_LABELS[action], 'secondary', () => host.send({ type: 'item/action', itemId: item.id, action })));
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
      note.append(button(l10n.t('Open the full message'), 'secondary', () => host.send({ type: 'item/openText', tab: host.tab(), itemId })));
      el.append(note);
    },
  };
}
/** Something the agent sent after its turn ended: marked, never shown as running. */
function lateNote(): HTMLElement {
  return h('div', 'late-note', { role: 'note' }, l10n.t('Arrived after the turn ended'));
}
const lateStatus = (status: ToolCallView['status']): ToolCallView['status'] => (status === 'in_progress' ? 'pending' : status);
const ACTION_LABELS = { restart: l10n.t('Restart agent'), retry: l10n.t('Retry'), openSettings: l10n.t('Open settings'), authenticate: l10n.t('Sign in'), showLog: l10n.t('Show log') };

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
      host.send({ type: 'permission/answer', tab: host.tab(), itemId: item.id, optionId: o.optionId }), l10n.t({ message: '{0}. {1}: {2} (key {0})', args: [i + 1, label, kindText(o.kind)], comment: ['A permission button\'s name: {0} its number (the key that answers), {1} its label, {2} what it does (Allow once…)'] })));
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
      host.send({ type: 'permission/answer', tab: host.tab(), itemId: item.id, optionId: option.optionId });
    }
  });
  return el;
}

// Text shown plain while the markdown renderer loaded is rendered when it arrives; the transcript
