// Choosing the agent: the configured default, else a quick pick over presets and the user's agents.
import * as vscode from 'vscode';
import type { AgentSpec } from '../common/agentConfig';
import { pickDefaultAgent } from '../common/agentConfig';
import { openSettings, readAgents, readDefaultAgentName, Settings, writeDefaultAgentName } from './config';

export async function pickAgent(opts: { useDefault: boolean }): Promise<AgentSpec | undefined> {
  const { agents, problems } = readAgents();
  if (problems.length) {
    void vscode.window.showWarningMessage(`Some entries of switchboard.agents were ignored: ${problems.join('; ')}`, 'Open Settings')
      .then(c => { if (c) void openSettings(Settings.agents); });
  }
  if (opts.useDefault) {
    const byDefault = pickDefaultAgent(agents, readDefaultAgentName());
    if (byDefault) return byDefault;
  }
  const current = readDefaultAgentName();
  const items = agents.map(a => ({
    label: a.name,
    description: [a.command, ...a.args].join(' '),
    detail: a.name === current ? 'Default agent' : a.preset ? 'Preset' : 'From your settings',
    agent: a,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Switchboard: choose the agent to use',
    placeHolder: 'The choice is saved as switchboard.defaultAgent in your user settings',
    matchOnDescription: true,
  });
  if (!picked) return undefined;
  await writeDefaultAgentName(picked.agent.name);
  return picked.agent;
}
