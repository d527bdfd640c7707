// What the welcome of an empty chat shows (common/welcome.ts decides, this module looks): the agents
// found on this computer (detected as the picker does: files looked at, nothing run), which of them
// need a sign-in, example prompts from the names at the workspace root, and the window's situation
// (no folder, untrusted, remote). Starting an agent from the welcome is choosing it in the picker.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { AgentSpec } from '../common/agentConfig';
import type { WelcomeAgent, WelcomeView } from '../common/protocol';
import { examplePrompts, needsSignIn, welcomeSituation } from '../common/welcome';
import { saveRegistryAgent } from './agentPicker';
import { readAgents, writeDefaultAgentName } from './config';
import { installedAgentsWithin, installedRegistryAgentsWithin } from './installedAgents';
import { completeWalkthroughStep } from './walkthrough';

/** How long the welcome waits for what is installed (as the picker does). */
const DETECTION_MS = 1500;

export interface WelcomeInputs {
  /** The agent running now, if any. */
  readonly running: string | undefined;
  /** Whether Switchboard keeps keys for the agent (a sign-in done here). */
  readonly storedKeys: (agentName: string) => Promise<boolean>;
}

/** The welcome as it fits this window now. */
export async function readWelcome(inputs: WelcomeInputs): Promise<WelcomeView> {
  const folder = vscode.workspace.workspaceFolders?.find(f => f.uri.scheme === 'file');
  const situation = welcomeSituation({ trusted: vscode.workspace.isTrusted, hasFolder: !!folder });
  const remote = vscode.env.remoteName || undefined;
  if (situation !== 'ready') return { situation, remote, agents: [], examples: [] };
  const [agents, rootNames] = await Promise.all([foundAgents(inputs), readRootNames(folder!.uri)]);
  return { situation, remote, agents, examples: examplePrompts(rootNames) };
}

/** The configured agents found installed, then the registry's, each marked when it needs a sign-in. */
async function foundAgents(inputs: WelcomeInputs): Promise<WelcomeAgent[]> {
  const { agents } = readAgents();
  const [installed, fromRegistry] = await Promise.all([installedAgentsWithin(agents, DETECTION_MS), installedRegistryAgentsWithin(agents, DETECTION_MS)]);
  const names = [...agents.filter(a => installed.has(a.name)).map(a => a.name), ...fromRegistry.map(r => r.target.name)];
  const home = os.homedir();
  return Promise.all(names.map(async name => ({
    name,
    running: name === inputs.running,
    needsSignIn: await needsSignIn(name, {
      env: process.env,
      hasFile: async rel => (await fs.stat(path.join(home, rel))).isFile(),
      storedKeys: await inputs.storedKeys(name),
    }),
  })));
}

/** The names at the root of the folder (nothing is read); none when it cannot be listed. */
async function readRootNames(uri: vscode.Uri): Promise<string[]> {
  try {
    return (await vscode.workspace.fs.readDirectory(uri)).slice(0, 500).map(([name]) => name);
  } catch {
    return [];
  }
}

/**
 * The agent the welcome's button stands for, chosen as in the picker (saved as the default agent;
 * a registry agent found installed gets its settings entry); undefined when it is no longer there.
 */
export async function chooseFromWelcome(name: string): Promise<AgentSpec | undefined> {
  const { agents } = readAgents();
  let chosen: AgentSpec | undefined = agents.find(a => a.name === name);
  if (!chosen) {
    const registry = (await installedRegistryAgentsWithin(agents, DETECTION_MS)).find(r => r.target.name === name);
    chosen = registry && (await saveRegistryAgent(registry));
  }
  if (!chosen) return undefined;
  await writeDefaultAgentName(chosen.name);
  completeWalkthroughStep('agentChosen');
  return chosen;
}

/** Fired when what the welcome shows may have changed (trust granted, folders or agents changed). */
export function onWelcomeInputs(listener: () => void): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.workspace.onDidGrantWorkspaceTrust(listener),
    vscode.workspace.onDidChangeWorkspaceFolders(listener),
    vscode.workspace.onDidChangeConfiguration(e => { if (e.affectsConfiguration('switchboard.agents')) listener(); }),
  );
}
