// A conversation stays with its agent. A tab that talked to agent A is never continued by agent B
// in a fresh session without the user saying so: when B is the one running (or A is no longer
// configured), the tab asks, naming both, and nothing is sent until the user answers.
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
    ...(configured ? [{ optionId: 'mine', name: `Start ${mine}${running ? ` (stops ${running.name})` : ''}`, kind: 'allow_once' as const }] : []),
    ...(running ? [{ optionId: 'other', name: `Continue with ${running.name} in a new session`, kind: 'allow_once' as const }]
      : [{ optionId: 'pick', name: 'Continue with another agent in a new session…', kind: 'allow_once' as const }]),
    { optionId: 'cancel', name: 'Cancel', kind: 'reject_once' as const },
  ];
  const why = running ? `${running.name} is the agent running now` : `${mine} is no longer in switchboard.agents`;
  const choice = await tab.choose(`This conversation is with ${mine}, but ${why}. Which agent should answer?`, options);
  if (choice === 'mine') return configured;
  let other: AgentSpec | 'running' | undefined;
  if (choice === 'other') other = 'running';
  else if (choice === 'pick') other = await pickAgent({ useDefault: false });
  if (other) {
    tab.addNotice(`From here on this conversation continues with ${other === 'running' ? running!.name : other.name}, in a new session: it does not see the messages above.`);
  }
  return other;
}
