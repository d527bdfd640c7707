// Words shared by the chat's cards: how a turn ended, a tool call's or plan entry's status, and the
// note on what arrived after its turn ended.
import * as l10n from '@vscode/l10n';
import { h } from './dom';

const STOP_REASONS: Record<string, string> = {
  end_turn: l10n.t({ message: 'Done', comment: ['The end of the agent\'s turn'] }), cancelled: l10n.t({ message: 'Stopped', comment: ['The end of the agent\'s turn, stopped by the user'] }), max_tokens: l10n.t('Stopped: the agent reached its token limit'),
  max_turn_requests: l10n.t('Stopped: the agent reached its request limit for this turn'), refusal: l10n.t('The agent refused to continue'),
};
export function stopText(stopReason: string): string {
  return STOP_REASONS[stopReason] ?? l10n.t('Turn ended: {0}', stopReason.replace(/_/g, ' '));
}
/** A tool call's or plan entry's status, in words. */
export function toolStatusText(status: string): string {
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
/** Something the agent sent after its turn ended: marked, never shown as running. */
export function lateNote(): HTMLElement {
  return h('div', 'late-note', { role: 'note' }, l10n.t('Arrived after the turn ended'));
}
