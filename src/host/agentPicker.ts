// Choosing the agent: the configured default, else a quick pick over presets and the user's agents,
// the ones installed on this computer first, marked "installed".
import * as vscode from 'vscode';
import type { AgentSpec } from '../common/agentConfig';
import { pickDefaultAgent } from '../common/agentConfig';
import { preferInstalled } from '../common/agentDetect';
import { openSettings, readAgents, readDefaultAgentName, Settings, writeDefaultAgentName } from './config';
import { installedAgentsWithin } from './installedAgents';
import { completeWalkthroughStep } from './walkthrough';

type Item = vscode.QuickPickItem & { agent?: AgentSpec };

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
  const installed = await installedAgentsWithin(agents, 1500);
  const origin = (a: AgentSpec) => (a.name === current ? vscode.l10n.t('Default agent') : a.preset ? vscode.l10n.t({ message: 'Preset', comment: 'An agent that comes with Switchboard (not from the user settings)' }) : vscode.l10n.t('From your settings'));
  const item = (a: AgentSpec): Item => {
    const hit = installed.get(a.name);
    return hit
      ? { label: a.name, description: vscode.l10n.t({ message: 'installed', comment: 'The agent was found on this computer (on PATH)' }), detail: `${origin(a)} · ${[hit.path, ...hit.launch.args].join(' ')}`, agent: preferInstalled(a, hit) }
      : { label: a.name, description: [a.command, ...a.args].join(' '), detail: origin(a), agent: a };
  };
  const found = agents.filter(a => installed.has(a.name)).map(item);
  const others = agents.filter(a => !installed.has(a.name)).map(item);
  const separator = (label: string): Item => ({ label, kind: vscode.QuickPickItemKind.Separator });
  const items = found.length ? [separator(vscode.l10n.t('Installed on this computer')), ...found, separator(vscode.l10n.t('More agents')), ...others] : others;
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Switchboard: choose the agent to use'),
    placeHolder: vscode.l10n.t('The choice is saved as switchboard.defaultAgent in your user settings'),
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!picked?.agent) return undefined;
  await writeDefaultAgentName(picked.agent.name);
  completeWalkthroughStep('agentChosen');
  return picked.agent;
}
