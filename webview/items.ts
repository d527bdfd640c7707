// The transcript's cards, one per item: messages, thoughts, tool calls (webview/toolCard.ts),
// permission requests (webview/permission.ts), questions (webview/question.ts), turn ends, notices, compactions and errors.
// Child agents' cards are built by webview/childAgents.ts around these.
import * as l10n from '@vscode/l10n';
import { MESSAGE_DISPLAY_MAX_CHARS, type Item, type ToolCallView } from '../src/common/transcript';
import { uiLanguage } from './l10n';
import { StreamedMarkdown } from './streamedMarkdown';
import type { Rendered } from './transcriptView';
import { button, h } from './dom';
import { buildQuestion } from './question';
import { restoreButton } from './checkpoint';
import { lateNote, stopText } from './labels';
import { buildPermission } from './permission';
import { buildTool, type CardHost, initToolCards } from './toolCard';

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
      return { el: buildPermission(item, host), item };
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
const lateStatus = (status: ToolCallView['status']): ToolCallView['status'] => (status === 'in_progress' ? 'pending' : status);
const ACTION_LABELS = { restart: l10n.t('Restart agent'), retry: l10n.t('Retry'), openSettings: l10n.t('Open settings'), authenticate: l10n.t('Sign in'), showLog: l10n.t('Show log') };
