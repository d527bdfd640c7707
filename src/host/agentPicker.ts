// Choosing the agent: the configured default, else a quick pick over presets and the user's agents,
// the ones installed on this computer first, marked "installed" — with the ACP registry's agents
// found installed (an entry is written for the one picked) — and last, adding one from the registry.
import * as vscode from 'vscode';
import type { AgentSpec } from '../common/agentConfig';
import { pickDefaultAgent } from '../common/agentConfig';
import { installedRegistryEntry, preferInstalled } from '../common/agentDetect';
import { openSettings, readAgents, readDefaultAgentName, Settings, writeDefaultAgentName } from './config';
import { InstalledRegistryAgent, installedAgentsWithin, installedRegistryAgentsWithin, registryAgentSource } from './installedAgents';
import { completeWalkthroughStep } from './walkthrough';

type Item = vscode.QuickPickItem & { agent?: AgentSpec; registry?: InstalledRegistryAgent; addFromRegistry?: true };

/** How long the picker waits for what is installed (a slow network folder on PATH must not stall it). */
const DETECTION_MS = 1500;

/** The quick pick; integration tests replace `pick` to read the items and choose one. */
export const agentPickerUi = {
  pick: (items: readonly Item[], options: vscode.QuickPickOptions): Thenable<Item | undefined> => vscode.window.showQuickPick(items, options),
};

/** `onShow`: called when the quick pick is about to open (not when the default agent answers at once). */
export async function pickAgent(opts: { useDefault: boolean; onShow?: () => void }): Promise<AgentSpec | undefined> {
  const { agents, problems } = readAgents();
  if (problems.length) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Some entries of switchboard.agents were ignored: {0}', problems.join('; ')), vscode.l10n.t('Open Settings'))
      .then(c => { if (c) void openSettings(Settings.agents); });
  }
  if (opts.useDefault) {
    const byDefault = pickDefaultAgent(agents, readDefaultAgentName());
    if (byDefault) return byDefault;
  }
  opts.onShow?.();
  const current = readDefaultAgentName();
  const [installed, fromRegistry] = await Promise.all([installedAgentsWithin(agents, DETECTION_MS), installedRegistryAgentsWithin(agents, DETECTION_MS)]);
  const installedLabel = vscode.l10n.t({ message: 'installed', comment: 'The agent was found on this computer (on PATH)' });
  const origin = (a: AgentSpec) => (a.name === current ? vscode.l10n.t('Default agent') : a.preset ? vscode.l10n.t({ message: 'Preset', comment: 'An agent that comes with Switchboard (not from the user settings)' }) : vscode.l10n.t('From your settings'));
  const item = (a: AgentSpec): Item => {
    const hit = installed.get(a.name);
    return hit
      ? { label: a.name, description: installedLabel, detail: `${origin(a)} · ${[hit.path, ...hit.launch.args].join(' ')}`, agent: preferInstalled(a, hit) }
      : { label: a.name, description: [a.command, ...a.args].join(' '), detail: origin(a), agent: a };
  };
  const registryItem = (r: InstalledRegistryAgent): Item => ({
    label: r.target.name, description: installedLabel, registry: r,
    detail: vscode.l10n.t({ message: 'From the ACP registry · {0}', args: [[r.found.path, ...r.found.launch.args].join(' ')], comment: '{0} is where the agent was found on this computer, with its arguments' }),
  });
  const found = [...agents.filter(a => installed.has(a.name)).map(item), ...fromRegistry.map(registryItem)];
  const others = agents.filter(a => !installed.has(a.name)).map(item);
  const separator = (label: string): Item => ({ label, kind: vscode.QuickPickItemKind.Separator });
  const addItem: Item = { label: `$(cloud-download) ${vscode.l10n.t('Add an agent from the ACP registry…')}`, addFromRegistry: true };
  const items = [
    ...(found.length ? [separator(vscode.l10n.t('Installed on this computer')), ...found, separator(vscode.l10n.t('More agents'))] : []),
    ...others, separator(''), addItem,
  ];
  const picked = await agentPickerUi.pick(items, {
    title: vscode.l10n.t('Switchboard: choose the agent to use'),
    placeHolder: vscode.l10n.t('The choice is saved as switchboard.defaultAgent in your user settings'),
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (picked?.addFromRegistry) { void vscode.commands.executeCommand('switchboard.addAgent'); return undefined; }
  const chosen = picked?.registry ? await saveRegistryAgent(picked.registry) : picked?.agent;
  if (!chosen) return undefined;
  await writeDefaultAgentName(chosen.name);
  completeWalkthroughStep('agentChosen');
  return chosen;
}

/** A registry agent found installed becomes the user's `switchboard.agents` entry: its program by absolute path. */
export async function saveRegistryAgent(r: InstalledRegistryAgent): Promise<AgentSpec | undefined> {
  const source = registryAgentSource();
  if (!source) return undefined;
  const entry = installedRegistryEntry(r.target, r.found);
  await source.saveEntry(r.target.name, entry);
  return { name: r.target.name, command: entry.command, args: entry.args, env: entry.env ?? {}, preset: false };
}
