// A conversation stays with its agent. A tab that talked to agent A is never continued by agent B
// in a fresh session without the user saying so: when A is no longer configured, the tab asks,
// and nothing is sent until the user answers. Agents run side by side: another one running is no
// reason to ask (docs/decisions/0024).
import * as vscode from 'vscode';
import type { AgentSpec } from '../common/agentConfig';
import { pickAgent } from '../host/agentPicker';
import { readAgents } from '../host/config';
import type { ChatSession } from './chatSession';

/**
 * The agent a prompt in `tab` goes to when it does not run: its own (started; no other agent is
 * stopped for it), `'pick'` for a conversation with no agent yet (the default, else the picker), or
 * undefined when the user declined (the prompt is not sent). Its own agent gone from the settings,
 * the conversation asks, naming it, and continues in a new session only when the user says so.
 */
export async function agentForPrompt(tab: ChatSession): Promise<AgentSpec | 'pick' | undefined> {
  const mine = tab.agentName;
  if (!mine) return 'pick';
  const configured = readAgents().agents.find(a => a.name === mine);
  if (configured) return configured;
  const hasHistory = !!tab.sessionId || tab.items.some(i => i.kind === 'user');
  if (!hasHistory) return 'pick';
  const options = [
    { optionId: 'pick', name: vscode.l10n.t('Continue with another agent in a new session…'), kind: 'allow_once' as const },
    { optionId: 'cancel', name: vscode.l10n.t('Cancel'), kind: 'reject_once' as const },
  ];
  const choice = await tab.choose(vscode.l10n.t('This conversation is with {0}, but {0} is no longer in switchboard.agents. Which agent should answer?', mine), options);
  const other = choice === 'pick' ? await pickAgent({ useDefault: false }) : undefined;
  if (other) {
    tab.addNotice(vscode.l10n.t('From here on this conversation continues with {0}, in a new session: it does not see the messages above.', other.name));
    tab.sessionId = undefined;
    tab.agentName = other.name;
  }
  return other;
}
