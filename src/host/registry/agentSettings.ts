// The user-settings side of registry installs: `switchboard.agents` entries written and removed
// (user scope only, like every setting that chooses what we spawn), and the record of what was
// installed from the registry (globalState, id -> name / version / kind / folder).
import * as vscode from 'vscode';
import type { AgentEntry } from '../../common/registry/distribution';
import { InstallRecord, parseRecords } from '../../common/registry/installed';
import { readDefaultAgentName, SECTION, Settings } from '../config';

const RECORDS_KEY = 'switchboard.registry.installed';
export const ALLOW_UNVERIFIED_SETTING = 'registry.allowUnverified';

/**
 * `switchboard.registry.allowUnverified` from the user's own settings (never a workspace's): a
 * binary agent whose download has no published checksum is installed only when it is on.
 */
export function allowsUnverified(): boolean {
  return vscode.workspace.getConfiguration(SECTION).inspect<unknown>(ALLOW_UNVERIFIED_SETTING)?.globalValue === true;
}

/** The user's own `switchboard.agents` object (never a workspace's). */
export function userAgents(): Record<string, unknown> {
  const v = vscode.workspace.getConfiguration(SECTION).inspect<unknown>(Settings.agents)?.globalValue;
  return v && typeof v === 'object' && !Array.isArray(v) ? { ...(v as Record<string, unknown>) } : {};
}

/** True when the user's settings hold an agent of that name (`null` hides a preset: not one). */
export function isConfigured(name: string): boolean {
  const v = userAgents()[name];
  return v !== undefined && v !== null && v !== false;
}

export async function writeAgentEntry(name: string, entry: AgentEntry | undefined): Promise<void> {
  const agents = userAgents();
  if (entry) agents[name] = entry;
  else delete agents[name];
  const config = vscode.workspace.getConfiguration(SECTION);
  await config.update(Settings.agents, Object.keys(agents).length ? agents : undefined, vscode.ConfigurationTarget.Global);
  if (!entry && readDefaultAgentName() === name) await config.update(Settings.defaultAgent, undefined, vscode.ConfigurationTarget.Global);
}

export class InstallRecords {
  constructor(private readonly state: vscode.Memento) {}

  all(): Record<string, InstallRecord> {
    return parseRecords(this.state.get(RECORDS_KEY));
  }

  async set(id: string, record: InstallRecord | undefined): Promise<void> {
    const all = this.all();
    if (record) all[id] = record;
    else delete all[id];
    await this.state.update(RECORDS_KEY, all);
  }
}
