// Shared by the integration tests: the extension's test API, the scripted agent, and waiting for
// what a user would see in the chat.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import type { AgentSpec } from '../../src/common/agentConfig';
import type { Item } from '../../src/common/transcript';
import type { ChatSession } from '../../src/session/chatSession';
import { isRunningState, parseProcStat } from '../../src/common/terminal';

export const EXTENSION_ID = 'switchboard-acp.switchboard-acp';

export async function api(): Promise<SwitchboardApi> {
  const ext = vscode.extensions.getExtension<SwitchboardApi>(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is installed`);
  return ext.isActive ? ext.exports : await ext.activate();
}

/**
 * Mocha hooks of a suite about reviewed changes: each test starts in a new conversation with nothing
 * left to review, and ends with its editors reverted and closed; the agent stops after the suite.
 */
export function freshReviewPerTest(sb: () => SwitchboardApi): void {
  beforeEach(async () => {
    await sb().chat.stop();
    await sb().chat.newConversation();
    for (const t of sb().review.views()) sb().review.keep(t.turnId);
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.files.revert').then(undefined, () => undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  after(async () => { await sb().chat.stop(); });
}

export function extensionRoot(): string {
  return vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
}

/** The Node that runs the scripted agent: the extension host's own. */
export const NODE = process.env.SWITCHBOARD_NODE || process.execPath;

export const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-it-'));
let scripts = 0;

/** Writes a script for the scripted agent and configures it as the default agent "Scripted". */
export async function useScriptedAgent(script: object, name = 'Scripted'): Promise<{ log: string; scriptPath: string }> {
  const n = ++scripts;
  const log = path.join(tmpDir, `agent-${n}.jsonl`);
  const scriptPath = path.join(tmpDir, `script-${n}.json`);
  fs.writeFileSync(scriptPath, JSON.stringify({ log, ...script }));
  await configureAgent(name, { command: NODE, args: [path.join(extensionRoot(), 'test/fixtures/agent/scripted-agent.mjs'), scriptPath] });
  return { log, scriptPath };
}

export async function configureAgent(name: string, entry: object | null): Promise<void> {
  const config = vscode.workspace.getConfiguration('switchboard');
  const agents = { ...(config.inspect<Record<string, unknown>>('agents')?.globalValue ?? {}), [name]: entry };
  await config.update('agents', agents, vscode.ConfigurationTarget.Global);
  await config.update('defaultAgent', name, vscode.ConfigurationTarget.Global);
}

export function agentEvents(log: string): Array<Record<string, unknown>> {
  if (!fs.existsSync(log)) return [];
  return fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).map(l => JSON.parse(l));
}

/** Polls `probe` until it returns a value; `what` may be a function, to describe the state at the timeout. */
export async function waitFor<T>(what: string | (() => string), probe: () => T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise(r => setTimeout(r, 25));
  }
}

/** A file not created yet: the scripted agent's `waitFile` step waits until the test calls open() (after it saw what it waits for). */
export function gate(name: string): { path: string; open(): void } {
  const file = path.join(tmpDir, `gate-${++scripts}-${name}`);
  return { path: file, open: () => fs.writeFileSync(file, '') };
}

export function isAlive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch { return false; }
}

/** Exists and is not a zombie (this sandbox's init never reaps re-parented processes, so kill(pid, 0) alone would see the dead). */
export function isRunning(pid: number): boolean {
  if (!isAlive(pid)) return false;
  try { return isRunningState(parseProcStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'))!.state); } catch { return process.platform !== 'linux'; }
}

/** Readable dump of the transcript, for assertion messages. */
export function dump(items: readonly Item[]): string {
  return items.map(i => `${i.kind}: ${'text' in i ? i.text : 'message' in i ? i.message : 'stopReason' in i ? i.stopReason : ''}`).join('\n');
}

export function lastOf<K extends Item['kind']>(items: readonly Item[], kind: K): Extract<Item, { kind: K }> | undefined {
  return [...items].reverse().find(i => i.kind === kind) as Extract<Item, { kind: K }> | undefined;
}

/** A Memento in memory: what workspaceState holds across a simulated window reload. */
export function memoryMemento(): vscode.Memento {
  const store = new Map<string, unknown>();
  return {
    get: (k: string, d?: unknown) => (store.has(k) ? store.get(k) : d),
    update: async (k: string, v: unknown) => { store.set(k, v); },
    keys: () => [...store.keys()],
  } as vscode.Memento;
}

export const quietLogger = { trace() {}, info() {}, warn() {}, error() {}, traceEnabled: false };

/** The diff editor the active tab shows, once it is open. */
export function activeDiffTab(): Promise<vscode.TabInputTextDiff> {
  return waitFor('a diff editor', () => {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    return input instanceof vscode.TabInputTextDiff ? input : undefined;
  });
}

/**
 * Configures several scripted agents at once, one script each (`{ 'Scripted A': scriptA, … }`); the
 * first is the default agent. Returns each agent's spec and event log.
 */
export async function useScriptedAgents(scripts: Readonly<Record<string, object>>): Promise<Record<string, { log: string; spec: AgentSpec }>> {
  const out: Record<string, { log: string; spec: AgentSpec }> = {};
  const config = vscode.workspace.getConfiguration('switchboard');
  const agents: Record<string, unknown> = { ...(config.inspect<Record<string, unknown>>('agents')?.globalValue ?? {}) };
  for (const [name, script] of Object.entries(scripts)) {
    const n = ++scripts_;
    const log = path.join(tmpDir, `agents-${n}.jsonl`);
    const scriptPath = path.join(tmpDir, `agents-script-${n}.json`);
    fs.writeFileSync(scriptPath, JSON.stringify({ log, ...script }));
    const entry = { command: NODE, args: [path.join(extensionRoot(), 'test/fixtures/agent/scripted-agent.mjs'), scriptPath] };
    agents[name] = entry;
    out[name] = { log, spec: { name, ...entry, env: {}, preset: false } };
  }
  await config.update('agents', agents, vscode.ConfigurationTarget.Global);
  await config.update('defaultAgent', Object.keys(scripts)[0], vscode.ConfigurationTarget.Global);
  return out;
}
let scripts_ = 0;

/**
 * The hooks of a suite with several agents: each test starts with no agent running and a new
 * conversation, and `ui.confirm` (which tests replace) is put back after it. `tabWith(spec)`: a new
 * shown tab talking to that agent.
 */
export function severalAgentsSuite(): { readonly sb: SwitchboardApi; tabWith(spec: { name: string }): Promise<ChatSession> } {
  let sb!: SwitchboardApi;
  let confirm: SwitchboardApi['chat']['ui']['confirm'];
  before(async () => { sb = await api(); confirm = sb.chat.ui.confirm; });
  beforeEach(async () => { await sb.chat.stop(); await sb.chat.newConversation(); });
  afterEach(() => { sb.chat.ui.confirm = confirm; });
  after(async () => { await sb.chat.stop(); });
  return {
    get sb() { return sb; },
    async tabWith(spec) {
      await sb.chat.newConversation();
      assert.equal(await sb.chat.start(spec as AgentSpec), true, dump(sb.chat.items));
      assert.equal(sb.chat.active.agentName, spec.name);
      return sb.chat.active;
    },
  };
}

/**
 * The hooks of a suite about agents' changes under review (`severalAgentsSuite`'s, with them): agents'
 * writes are applied without a diff to accept (`switchboard.fs.reviewWrites`: never), and each test
 * starts with nothing left to review.
 */
export function reviewSuite(): ReturnType<typeof severalAgentsSuite> {
  const suite = severalAgentsSuite();
  const fsConfig = () => vscode.workspace.getConfiguration('switchboard.fs');
  before(async () => { await fsConfig().update('reviewWrites', 'never', vscode.ConfigurationTarget.Global); });
  beforeEach(() => { for (const t of suite.sb.review.views()) suite.sb.review.keep(t.turnId); });
  after(async () => { await fsConfig().update('reviewWrites', undefined, vscode.ConfigurationTarget.Global); });
  return suite;
}
