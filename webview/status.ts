// The status line (the agent, its state, the shown conversation's) and the composer's buttons: Send
// (Queue while the agent works), Stop (Cancel while the agent starts; Esc), the agent picker and
// Run in Parallel. The status line follows the agent's status and the shown tab (webview/tabs.ts).
import * as l10n from '@vscode/l10n';
import type { ChatStatus, ViewMessage } from '../src/common/protocol';
import { statusLine } from './statusLine';
import { shownTabInfo, tabState } from './tabs';

let send: (m: ViewMessage) => void = () => {};
let statusEl: HTMLElement;
let sendEl: HTMLButtonElement;
let stopEl: HTMLButtonElement;
let agentEl: HTMLButtonElement;
let busy = false;
let chatStatus: ChatStatus = { agentName: undefined, status: 'stopped', detail: '' };

/** `pickerOpen`: the prompt box's completions are open (Esc closes them, and stops nothing). */
export function initStatus(post: (m: ViewMessage) => void, els: { status: HTMLElement; send: HTMLButtonElement; stop: HTMLButtonElement; agent: HTMLButtonElement }, pickerOpen: () => boolean): void {
  send = post;
  ({ status: statusEl, send: sendEl, stop: stopEl, agent: agentEl } = els);
  document.addEventListener('keydown', e => {
    if (e.key === 'Escape' && busy && !pickerOpen() && !e.defaultPrevented && (e.target as HTMLElement).tagName !== 'SELECT') send({ type: 'turn/cancel' });
  });
  stopEl.addEventListener('click', () => send({ type: 'turn/cancel' }));
  agentEl.addEventListener('click', () => send({ type: 'agent/pick' }));
  document.getElementById('parallel')?.addEventListener('click', () => send({ type: 'parallel/open' }));
}

function setBusy(b: boolean): void {
  busy = b;
  stopEl.hidden = !b;
  // While the agent works, Enter queues the message (sent when the turn ends; see queue.ts).
  sendEl.textContent = b ? l10n.t('Queue') : l10n.t('Send');
  sendEl.title = b ? l10n.t("Queue (Enter): sent when the agent's turn ends") : l10n.t('Send (Enter)');
}

/** The agent's status (drawn with the shown tab by renderStatus). */
export function setStatus(status: ChatStatus): void {
  chatStatus = status;
  agentEl.textContent = status.agentName ?? l10n.t('Choose agent');
}

/** The status line and the composer's Send / Stop: from the agent's status and the shown tab's state. */
export function renderStatus(): void {
  const line = statusLine(chatStatus, shownTabInfo(), tabState);
  statusEl.className = line.className;
  // The status line is a live region: only a change is read out.
  if (statusEl.textContent !== line.text) statusEl.textContent = line.text;
  setBusy(line.busy);
  // While the agent itself starts (a first download can take minutes), Stop cancels the start.
  stopEl.textContent = line.cancelsStart ? l10n.t('Cancel') : l10n.t('Stop');
  stopEl.title = line.cancelsStart ? l10n.t('Cancel the start of the agent (Esc)') : l10n.t("Stop the agent's turn (Esc)");
}
