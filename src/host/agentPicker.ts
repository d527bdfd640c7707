// Choosing the agent: the configured default, else a quick pick over presets and the user's agents.
import * as vscode from 'vscode';
import type { AgentSpec } from '../common/agentConfig';
import { pickDefaultAgent } from '../common/agentConfig';
import { openSettings, readAgents, readDefaultAgentName, Settings, writeDefaultAgentName } from './config';

export async function pickAgent(opts: { useDefault: boolean }): Promise<AgentSpec | undefined> {
  const { agents, problems } = readAgents();
  if (problems.length) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Some entries of switchboard.agents were ignored: {0}', problems.join('; ')), vscode.l10n.t('Open Settings'))
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
    detail: a.name === current ? vscode.l10n.t('Default agent') : a.preset ? vscode.l10n.t({ message: 'Preset', comment: 'An agent that comes with Switchboard (not from the user settings)' }) : vscode.l10n.t('From your settings'),
    agent: a,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Switchboard: choose the agent to use'),
    placeHolder: vscode.l10n.t('The choice is saved as switchboard.defaultAgent in your user settings'),
    matchOnDescription: true,
  });
  if (!picked) return undefined;
  await writeDefaultAgentName(picked.agent.name);
  return picked.agent;
}
