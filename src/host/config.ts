// Typed access to the extension's settings. The settings that choose which program we spawn are
// read from the user's own settings only: a repository's .vscode/settings.json must never pick the
// binary (defence in depth on top of the manifest's `machine` scope and restrictedConfigurations).
import * as vscode from 'vscode';
import { AgentConfigResult, resolveAgents } from '../common/agentConfig';
import { OutsideTurnPolicy, parseOutsideTurnPolicy } from '../common/requestGuard';

export const SECTION = 'switchboard';

export const Settings = {
  agents: 'agents',
  defaultAgent: 'defaultAgent',
  initializeTimeoutSeconds: 'initializeTimeoutSeconds',
  agentIdleMinutes: 'agentIdleMinutes',
} as const;

function userValue<T>(key: string): T | undefined {
  return vscode.workspace.getConfiguration(SECTION).inspect<T>(key)?.globalValue;
}

export function readAgents(): AgentConfigResult {
  return resolveAgents(userValue<unknown>(Settings.agents));
}

export function readDefaultAgentName(): string | undefined {
  return userValue<string>(Settings.defaultAgent) || undefined;
}

export async function writeDefaultAgentName(name: string): Promise<void> {
  await vscode.workspace.getConfiguration(SECTION).update(Settings.defaultAgent, name, vscode.ConfigurationTarget.Global);
}

/** The user's own value, else the default: a repository cannot loosen what guards the user. */
function guardValue<T>(key: string): T | undefined {
  const i = vscode.workspace.getConfiguration(SECTION).inspect<T>(key);
  return i?.globalValue ?? i?.defaultValue;
}

/** switchboard.requestsOutsideTurn: fs/terminal requests while the session has no turn running. */
export function readRequestsOutsideTurn(): OutsideTurnPolicy {
  return parseOutsideTurnPolicy(guardValue('requestsOutsideTurn'));
}

/** switchboard.terminal.confirmCommands: confirm commands the user did not allow in this turn (on unless the user turned it off). */
export function readConfirmCommands(): boolean {
  return guardValue<boolean>('terminal.confirmCommands') !== false;
}

/** switchboard.startInAskingMode: a new conversation starts in the agent's mode that asks before editing. */
export function readStartInAskingMode(): boolean {
  return guardValue<boolean>('startInAskingMode') !== false;
}

export function readInitializeTimeoutMs(): number {
  const s = vscode.workspace.getConfiguration(SECTION).get<number>(Settings.initializeTimeoutSeconds, 60);
  return Math.max(1, Number.isFinite(s) ? s : 60) * 1000;
}

/** How long an agent may have nothing to do before its process stops (ms); 0: never. */
export function readAgentIdleMs(): number {
  const m = vscode.workspace.getConfiguration(SECTION).get<number>(Settings.agentIdleMinutes, 30);
  return Number.isFinite(m) && m > 0 ? m * 60_000 : 0;
}

export function openSettings(key: string): Thenable<unknown> {
  return vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.${key}`);
}

/** switchboard.inspector.*: when the protocol inspector records, and how much it keeps. */
export function readInspectorSettings(): { recordAlways: boolean; maxMessages: number; maxMegabytes: number } {
  const c = vscode.workspace.getConfiguration(`${SECTION}.inspector`);
  const num = (key: string, def: number, min: number) => { const v = c.get<number>(key, def); return Number.isFinite(v) ? Math.max(min, v) : def; };
  return { recordAlways: c.get<boolean>('recordAlways', false) === true, maxMessages: num('maxMessages', 200_000, 100), maxMegabytes: num('maxMegabytes', 64, 1) };
}
