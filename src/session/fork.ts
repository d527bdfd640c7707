// "Fork conversation": the conversation continues in a new tab. An agent that offers `session/fork`
// (unstable in ACP; `sessionCapabilities.fork`) forks its session, and the new tab shows the history
// it continues; otherwise the new tab starts a new session, and a summary of the conversation
// (common/conversation/forkSummary) goes into the prompt box for the user to read and edit first.
import * as vscode from 'vscode';
import type * as acp from '@agentclientprotocol/sdk/unstable';
import { mcpForSession } from '../host/mcp';
import { ChatSession, describe } from './chatSession';

/** True when `from`'s agent runs and offers `session/fork`. */
export function canFork(from: ChatSession): boolean {
  const runtime = from.runtime;
  const caps = runtime?.isRunning && from.sessionId ? runtime.capabilities.sessionCapabilities as { fork?: unknown } | null | undefined : undefined;
  return !!caps?.fork;
}

/** The new tab's title. */
export function forkTitle(from: ChatSession): string {
  return vscode.l10n.t({ message: 'Fork of {0}', args: [from.info.title], comment: ['Title of a conversation tab forked from another; {0} is its title'] });
}

/** `session/fork` of `from`'s session: the new session, the reason it failed, or undefined when the agent cannot fork. */
export async function requestFork(from: ChatSession): Promise<acp.NewSessionResponse | string | undefined> {
  const runtime = from.runtime;
  if (!canFork(from) || !runtime || !from.sessionId) return undefined;
  try {
    const mcp = await mcpForSession(runtime.spec.name, runtime.capabilities.mcpCapabilities);
    return await runtime.connection.forkSession(from.sessionId, runtime.cwd, mcp.servers);
  } catch (err) {
    return describe(err);
  }
}

/** Binds the new tab to the forked session and says what happened; false: it starts anew, primed with a summary. */
export function finishFork(from: ChatSession, tab: ChatSession, forked: acp.NewSessionResponse | string | undefined): boolean {
  if (typeof forked === 'object' && from.runtime?.isRunning) {
    tab.bind(from.runtime, forked.sessionId, forked);
    tab.addNotice(vscode.l10n.t('Forked from “{0}”: {1} continues with the whole conversation here; the original stays as it was.', from.info.title, from.agentName));
    return true;
  }
  tab.addNotice(typeof forked === 'string'
    ? vscode.l10n.t('{0} could not fork its session ({1}): this conversation starts anew, and a summary of “{2}” is in the prompt box. Edit it, then send.', from.agentName, forked, from.info.title)
    : vscode.l10n.t('{0} cannot fork its session: this conversation starts anew, and a summary of “{1}” is in the prompt box. Edit it, then send.', from.agentName, from.info.title));
  return false;
}
