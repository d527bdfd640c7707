// A conversation stays with its agent. A tab that talked to agent A is never continued by agent B
// in a fresh session without the user saying so: when B is the one running (or A is no longer
// configured), the tab asks, naming both, and nothing is sent until the user answers.
import * as vscode from 'vscode';
import type { AgentSpec } from '../common/agentConfig';
import { pickAgent } from '../host/agentPicker';
import { readAgents } from '../host/config';
import type { ChatSession } from './chatSession';

/**
 * The agent a prompt in `tab` goes to: `'running'` (the running one, as before), a spec to start
 * (it replaces the running agent), or undefined when the user declined (the prompt is not sent).
 */
export async function agentForPrompt(tab: ChatSession, running: AgentSpec | undefined): Promise<AgentSpec | 'running' | undefined> {
  const mine = tab.agentName;
  const hasHistory = !!tab.sessionId || tab.items.some(i => i.kind === 'user');
  if (!mine || !hasHistory || running?.name === mine) return 'running';
  const configured = readAgents().agents.find(a => a.name === mine);
  if (configured && !running) return configured;
  const options = [
    ...(configured ? [{ optionId: 'mine', name: running ? vscode.l10n.t('Start {0} (stops {1})', mine, running.name) : vscode.l10n.t('Start {0}', mine), kind: 'allow_once' as const }] : []),
    ...(running ? [{ optionId: 'other', name: vscode.l10n.t('Continue with {0} in a new session', running.name), kind: 'allow_once' as const }]
      : [{ optionId: 'pick', name: vscode.l10n.t('Continue with another agent in a new session…'), kind: 'allow_once' as const }]),
    { optionId: 'cancel', name: vscode.l10n.t('Cancel'), kind: 'reject_once' as const },
  ];
  const question = running
    ? vscode.l10n.t('This conversation is with {0}, but {1} is the agent running now. Which agent should answer?', mine, running.name)
    : vscode.l10n.t('This conversation is with {0}, but {0} is no longer in switchboard.agents. Which agent should answer?', mine);
  const choice = await tab.choose(question, options);
  if (choice === 'mine') return configured;
  let other: AgentSpec | 'running' | undefined;
  if (choice === 'other') other = 'running';
  else if (choice === 'pick') other = await pickAgent({ useDefault: false });
  if (other) {
    tab.addNotice(vscode.l10n.t('From here on this conversation continues with {0}, in a new session: it does not see the messages above.', other === 'running' ? running!.name : other.name));
  }
  return other;
}
