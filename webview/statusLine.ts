// What the status line says, from the agent's status and the shown conversation's tab; whether the
// composer is busy (Send queues, Stop shows) and whether Stop cancels the agent's start. Pure: no DOM.
import * as l10n from '@vscode/l10n';
import type { ChatStatus, TabInfo } from '../src/common/protocol';

const AGENT_STATUS_LABELS: Record<ChatStatus['status'], string> = {
  stopped: l10n.t({ message: 'stopped', comment: ['The agent status after its name in the status line'] }),
  starting: l10n.t({ message: 'starting', comment: ['The agent status after its name in the status line'] }),
  ready: l10n.t({ message: 'running', comment: ['The agent status after its name in the status line'] }),
  error: l10n.t({ message: 'error', comment: ['The agent status after its name in the status line'] }),
};

export interface StatusLine {
  readonly text: string;
  /** `status-<agent status>`, or `status-starting` while the conversation's session opens. */
  readonly className: string;
  /** The agent or this conversation is starting or working: Enter queues, Stop shows. */
  readonly busy: boolean;
  /** The agent itself is starting: Stop cancels the start. */
  readonly cancelsStart: boolean;
}

/** `tab` is the shown conversation's; `stateText` its state in words. */
export function statusLine(status: ChatStatus, tab: TabInfo | undefined, stateText: (tab: TabInfo) => string): StatusLine {
  const state = tab?.state;
  // The agent runs, but this conversation's session is still opening (real agents take seconds):
  // the prompt waits for it.
  const opening = state === 'starting' && (status.status === 'ready' || status.status === 'stopped');
  // A conversation stays with its agent: when another agent runs, the line says whose this one is.
  const tabAgent = tab?.agentName;
  const otherAgent = !opening && status.status === 'ready' && tabAgent && status.agentName && tabAgent !== status.agentName;
  // While the picker is open nothing starts yet: the host's detail says it waits for the choice.
  let text = opening ? (status.status === 'ready' ? l10n.t('Starting a session with {0}…', status.agentName ?? '') : status.detail || l10n.t('Starting the agent…'))
    : otherAgent ? l10n.t({ message: 'This conversation is with {0} (not running; {1} is running)', args: [tabAgent, status.agentName!], comment: ['The status line of a conversation whose agent is not the one running: {0} its agent, {1} the running agent'] })
    : status.detail || (status.agentName ? l10n.t({ message: '{0} · {1}', args: [status.agentName, AGENT_STATUS_LABELS[status.status]], comment: ['The status line: {0} is the agent\'s name, {1} its status (running, stopped…)'] }) : l10n.t('No agent running'));
  if (tab?.waitingIn) text = `${text} · ${stateText(tab)}`;
  return {
    text,
    className: `status-${opening ? 'starting' : status.status}`,
    busy: status.status === 'starting' || state === 'starting' || state === 'busy' || state === 'waiting',
    cancelsStart: status.status === 'starting',
  };
}
