// "Restore files to before this turn" on a user message: a small icon button under it; the host
// (host/checkpoints) shows what would change and asks before restoring.
import * as l10n from '@vscode/l10n';
import type { ViewMessage } from '../src/common/protocol';
import { button, h } from './dom';

export function restoreButton(itemId: string, tab: string | undefined, send: (m: ViewMessage) => void): HTMLElement {
  const label = l10n.t('Restore files to before this turn');
  const b = button('', 'icon-button restore-checkpoint', () => send({ type: 'checkpoint/restore', tab, itemId }), label);
  b.append(h('span', 'codicon codicon-history', { 'aria-hidden': 'true' }));
  const row = h('div', 'message-actions');
  row.append(b);
  return row;
}
