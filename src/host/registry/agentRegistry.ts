// "Switchboard: Add Agent…", "Update Agent…", "Remove Agent…": agents from the ACP registry
// installed into the user's `switchboard.agents`. npx / uvx agents are pinned to the registry's
// version; binary agents are downloaded for this platform, checked against their SHA-256, unpacked
// into globalStorage/agents/<id>/<version>/ and run from there. A failed install leaves nothing.
// A binary whose download has no published checksum is installed only when the user's own
// settings allow unverified agents. Update and Remove stop a running agent first (after asking),
// and never delete the files a running agent runs from.
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../../common/logger';
import { archiveKindOf, ArchiveKind, isInside } from '../../common/registry/archive';
import { AgentEntry, binaryEntry, isChoice, isUnverified, launchCommands, packageEntry, pickDistribution, platformKey, RegistryLaunch } from '../../common/registry/distribution';
import { compareVersions, InstallRecord, installState } from '../../common/registry/installed';
import type { BinaryTarget, PlatformKey, RegistryAgent } from '../../common/registry/schema';
import { writeDefaultAgentName } from '../config';
import { ALLOW_UNVERIFIED_SETTING, allowsUnverified, InstallRecords, isConfigured, userAgents, writeAgentEntry } from './agentSettings';
import { DownloadError, downloadToFile } from './download';
import { extractArchive } from './extract';
import { processesRunningFrom } from './processScan';
import { AgentPickItem, buildAgentItems, RegistryUi, registryTitle, unavailableMessage, windowUi } from './picker';
import { allowsHttp, LoadedRegistry, RegistrySource } from './registrySource';

export type RegistryResult =
  | { readonly ok: true; readonly id: string; readonly name: string; readonly version: string; readonly entry?: AgentEntry }
  | { readonly ok: false; readonly error: string };

/** An agent process running now, as the session layer knows it. */
export interface RunningAgent {
  readonly name: string;
  /** The program it was started with (a registry binary's absolute path). */
  readonly command: string;
}

/** The agents running now, and a way to stop one (the session layer; extension.ts wires it). */
export interface RunningAgents {
  list(): readonly RunningAgent[];
  /** Resolves once the agent's process is gone. */
  stop(agent: RunningAgent): Promise<void>;
}

const noneRunning: RunningAgents = { list: () => [], stop: async () => undefined };

/** Largest archive we download. */
const ARCHIVE_MAX_BYTES = 1024 ** 3;
const DOWNLOAD_IDLE_MS = 30_000;

export class AgentRegistry {
  /** The dialogs; integration tests replace it to answer them. */
  ui: RegistryUi = windowUi;
  /** The clock the picker's "from 3 days ago" is measured with; tests set it (no test depends on the date). */
  now: () => number = Date.now;
  readonly source: RegistrySource;
  readonly records: InstallRecords;
  readonly platform: PlatformKey | undefined = platformKey(process.platform, process.arch);
  private readonly installing = new Set<string>();

  constructor(readonly storageDir: string, snapshotFile: string, state: vscode.Memento, private readonly log: Logger, private readonly running: RunningAgents = noneRunning) {
    this.source = new RegistrySource(storageDir, snapshotFile, log);
    this.records = new InstallRecords(state);
  }

  /** Where a binary agent's versions are unpacked. */
  agentDir(id: string): string {
    return path.join(this.storageDir, 'agents', id);
  }

  /** The registry (network, else cache, else snapshot) with the icons the picker needs. */
  async load(): Promise<LoadedRegistry> {
    const loaded = await this.source.load();
    if (loaded.source === 'network') await this.source.fetchIcons(loaded);
    else this.log.info(`Agent registry: using the ${loaded.source} copy of ${loaded.url} from ${new Date(loaded.fetchedAt).toISOString()}`);
    return loaded;
  }

  /**
   * The launch commands of the registry's agents on this platform, from the copy available offline
   * (cache, else snapshot; no network): what the agent picker looks for on PATH. None if unreadable.
   */
  async offlineLaunches(): Promise<readonly RegistryLaunch[]> {
    try {
      return launchCommands((await this.source.loadOffline()).registry.agents, this.platform);
    } catch (e) {
      this.log.warn(`Agent registry: no copy to look for installed agents in: ${(e as Error).message}`);
      return [];
    }
  }

  /** Writes the user's `switchboard.agents` entry (a registry agent found installed, picked in the agent picker). */
  saveEntry(name: string, entry: AgentEntry): Promise<void> {
    return writeAgentEntry(name, entry);
  }

  /** The picker's content for a loaded registry. */
  pickerContent(loaded: LoadedRegistry, heading = vscode.l10n.t('Add an agent from the ACP registry')): { title: string; items: AgentPickItem[] } {
    return {
      title: registryTitle(loaded, heading, this.now()),
      items: buildAgentItems(loaded, this.records.all(), isConfigured, this.platform, a => this.source.iconOf(a), allowsUnverified()),
    };
  }

  /** Add Agent…: pick a registry agent (or name it by id) and install it. */
  async add(id?: string): Promise<RegistryResult | undefined> {
    const loading = this.load();
    let agent: RegistryAgent | undefined;
    if (id) {
      agent = (await loading).registry.agents.find(a => a.id === id);
      if (!agent) return this.fail(vscode.l10n.t('The agent registry has no agent "{0}".', id));
    } else {
      const picked = await this.ui.pick(loading.then(l => this.pickerContent(l)), vscode.l10n.t('Choose an agent to install into your user settings'));
      if (!picked) return undefined;
      agent = picked.agent;
    }
    return this.install(agent, await loading);
  }

  /** Update Agent…: moves an installed agent to the registry's version. */
  async update(id?: string): Promise<RegistryResult | undefined> {
    const loaded = await this.load();
    if (!id) {
      const content = this.pickerContent(loaded, vscode.l10n.t('Update an agent from the ACP registry'));
      const items = content.items.filter(i => i.state.state === 'update');
      if (!items.length) { void this.ui.info(vscode.l10n.t('Every agent installed from the registry is up to date.')); return undefined; }
      const picked = await this.ui.pick(Promise.resolve({ title: content.title, items }), vscode.l10n.t('Choose an agent to update'));
      if (!picked) return undefined;
      id = picked.agent.id;
    }
    const record = this.records.all()[id];
    if (!record || !isConfigured(record.name)) return this.fail(vscode.l10n.t('"{0}" was not installed from the agent registry.', id));
    const agent = loaded.registry.agents.find(a => a.id === id);
    if (!agent) return this.fail(vscode.l10n.t('The agent registry no longer lists "{0}".', id));
    if (installState(agent.version, record, isConfigured).state !== 'update') {
      void this.ui.info(vscode.l10n.t('{0} {1} is the registry\'s latest version.', record.name, record.version));
      return { ok: true, id, name: record.name, version: record.version };
    }
    return this.install(agent, loaded);
  }

  /** Remove Agent…: deletes an installed agent's files and its settings entry, after asking. */
  async remove(id?: string): Promise<RegistryResult | undefined> {
    const records = this.records.all();
    if (!id) {
      const items = Object.entries(records).map(([rid, r]) => ({ label: r.name, description: `${r.version} · ${r.kind}`, detail: r.dir, id: rid }));
      if (!items.length) { void this.ui.info(vscode.l10n.t('No agent was installed from the registry.')); return undefined; }
      const picked = await this.ui.pick(Promise.resolve({ title: vscode.l10n.t('Remove an agent installed from the registry'), items }), vscode.l10n.t('Choose the agent to remove'));
      if (!picked) return undefined;
      id = picked.id;
    }
    const record = records[id];
    if (!record) return this.fail(vscode.l10n.t('"{0}" was not installed from the agent registry.', id));
    const dir = this.agentDir(id);
    const running = this.runningOf(id, record.name);
    const detail = [
      running.length ? vscode.l10n.t('{0} is running: it is stopped first.', running.map(r => r.name).join(', ')) : undefined,
      fs.existsSync(dir)
        ? vscode.l10n.t('Its files ({0}) and its entry "{1}" in switchboard.agents are deleted.', dir, record.name)
        : vscode.l10n.t('Its entry "{0}" in switchboard.agents is deleted.', record.name),
    ].filter(Boolean).join(' ');
    const action = running.length ? vscode.l10n.t('Stop and Remove') : vscode.l10n.t('Remove');
    if (!await this.ui.confirm(vscode.l10n.t('Remove {0} {1}?', record.name, record.version), detail, action)) return undefined;
    const stillRunning = await this.stopAll(running, dir);
    if (stillRunning) return this.fail(stillRunning);
    try {
      await fs.promises.rm(dir, { recursive: true, force: true });
    } catch (e) {
      return this.fail(vscode.l10n.t('Could not delete {0}: {1}', dir, (e as Error).message));
    }
    if (isConfigured(record.name)) await writeAgentEntry(record.name, undefined);
    await this.records.set(id, undefined);
    this.log.info(`Agent registry: removed ${id} ${record.version} ("${record.name}")`);
    return { ok: true, id, name: record.name, version: record.version };
  }

  /** The running agents that run from this registry agent's files, or under its name in switchboard.agents. */
  private runningOf(id: string, name: string | undefined): RunningAgent[] {
    const dir = this.agentDir(id);
    return this.running.list().filter(r => runsFrom(dir, r.command) || (name !== undefined && r.name === name));
  }

  /**
   * Stops these agents and checks that nothing runs from `dir` any more; the reason when something
   * still does (then nothing may be deleted).
   */
  private async stopAll(agents: readonly RunningAgent[], dir: string): Promise<string | undefined> {
    for (const a of agents) {
      this.log.info(`Agent registry: stopping ${a.name} (${a.command}) before its files change`);
      await this.running.stop(a);
    }
    return await this.runningFromMessage(dir);
  }

  /**
   * Why `dir` must not be deleted now: an agent of this window runs from it, or another process
   * does (another window's agent, which this window cannot stop).
   */
  private async runningFromMessage(dir: string): Promise<string | undefined> {
    const left = this.running.list().filter(r => runsFrom(dir, r.command)).map(r => r.name);
    if (!left.length) {
      for (const p of await processesRunningFrom(dir)) left.push(vscode.l10n.t('process {0} ({1})', p.pid, p.command.length > 120 ? `${p.command.slice(0, 120)}…` : p.command));
    }
    return left.length ? vscode.l10n.t('{0} is running from {1}: nothing was deleted. Stop it first.', left.join(', '), dir) : undefined;
  }

  private fail(error: string): RegistryResult {
    this.log.warn(`Agent registry: ${error}`);
    this.ui.error(error);
    return { ok: false, error };
  }

  private async install(agent: RegistryAgent, loaded: LoadedRegistry): Promise<RegistryResult | undefined> {
    if (this.installing.has(agent.id)) return this.fail(vscode.l10n.t('{0} is being installed already.', agent.name));
    this.installing.add(agent.id);
    try {
      return await this.installNow(agent, loaded);
    } finally {
      this.installing.delete(agent.id);
    }
  }

  private async installNow(agent: RegistryAgent, loaded: LoadedRegistry): Promise<RegistryResult | undefined> {
    const choice = pickDistribution(agent, this.platform);
    if (!isChoice(choice)) return this.fail(unavailableMessage(agent, choice));
    const previous = this.records.all()[agent.id];
    const name = previous && isConfigured(previous.name) ? previous.name : agent.name;
    const state = installState(agent.version, previous, isConfigured);
    if (state.state === 'installed' && compareVersions(agent.version, state.version) === 0) {
      if (!await this.ui.confirm(vscode.l10n.t('{0} {1} is already installed.', name, agent.version), vscode.l10n.t('Install it again?'), vscode.l10n.t('Reinstall'))) return undefined;
    } else if (state.state === 'available' && userAgents()[name] !== undefined && userAgents()[name] !== null) {
      const replace = await this.ui.confirm(vscode.l10n.t('Your switchboard.agents already has an agent named "{0}".', name),
        vscode.l10n.t('Replace it with {0} {1} from the registry?', agent.name, agent.version), vscode.l10n.t('Replace'));
      if (!replace) return undefined;
    }
    if (isUnverified(choice)) {
      if (!allowsUnverified()) {
        return this.fail(vscode.l10n.t('{0} {1} was not installed: the registry publishes no checksum for its download, so it cannot be verified. To install it anyway, turn on {2} in your user settings.',
          agent.name, agent.version, `switchboard.${ALLOW_UNVERIFIED_SETTING}`));
      }
      this.log.warn(`Agent registry: ${agent.id} ${agent.version} has no published checksum; installing it unverified (switchboard.${ALLOW_UNVERIFIED_SETTING} is on)`);
    }
    // An agent running from the files this replaces (or under this name) is stopped first, if the user agrees.
    const running = previous ? this.runningOf(agent.id, previous.name) : [];
    if (running.length) {
      const reinstall = state.state === 'installed';
      const fromFiles = running.some(r => runsFrom(this.agentDir(agent.id), r.command));
      const detail = reinstall
        ? vscode.l10n.t('It is stopped before it is installed again.')
        : fromFiles
          ? vscode.l10n.t('It is stopped before it is updated to {0}: the files it runs from are replaced.', agent.version)
          : vscode.l10n.t('It is stopped before it is updated to {0}.', agent.version);
      const go = await this.ui.confirm(vscode.l10n.t('{0} is running.', running.map(r => r.name).join(', ')), detail,
        reinstall ? vscode.l10n.t('Stop and Reinstall') : vscode.l10n.t('Stop and Update'));
      if (!go) return undefined;
      const still = await this.stopAll(running, this.agentDir(agent.id));
      if (still) return this.fail(still);
    }
    let installed: { entry: AgentEntry; dir?: string } | undefined;
    if (choice.kind === 'binary') {
      try {
        installed = await this.installBinary(agent, choice.target, archiveKindOf(choice.target.archive) as ArchiveKind, allowsHttp(loaded.url));
      } catch (e) {
        if (e instanceof DownloadError && e.failure === 'cancelled') { this.log.info(`Agent registry: install of ${agent.id} cancelled`); return undefined; }
        return this.fail(vscode.l10n.t('Could not install {0} {1}: {2}', agent.name, agent.version, (e as Error).message));
      }
    } else {
      installed = { entry: packageEntry(choice.kind, choice.dist, agent.version) };
    }
    await writeAgentEntry(name, installed.entry);
    const record: InstallRecord = { name, version: agent.version, kind: choice.kind, ...(installed.dir ? { dir: installed.dir } : {}) };
    await this.records.set(agent.id, record);
    // The previous version's files, once the settings point at the new ones.
    if (previous?.dir && previous.dir !== installed.dir && isInside(this.agentDir(agent.id), previous.dir)) {
      const running = await this.runningFromMessage(previous.dir);
      if (running) this.log.warn(`Agent registry: kept ${previous.dir}: ${running}`);
      else await fs.promises.rm(previous.dir, { recursive: true, force: true }).catch(e => this.log.warn(`Agent registry: could not delete ${previous.dir}: ${e.message}`));
    }
    this.log.info(`Agent registry: installed ${agent.id} ${agent.version} (${choice.kind}) as "${name}": ${[installed.entry.command, ...installed.entry.args].join(' ')}`);
    const start = vscode.l10n.t('Start {0}', name);
    void this.ui.info(vscode.l10n.t('{0} {1} is installed as "{2}" in your switchboard.agents.', agent.name, agent.version, name), start).then(async c => {
      if (c !== start) return;
      await writeDefaultAgentName(name);
      await vscode.commands.executeCommand('switchboard.startAgent');
    });
    return { ok: true, id: agent.id, name, version: agent.version, entry: installed.entry };
  }

  /** Download, verify, unpack into a staging folder, then move into place. Nothing is left on failure. */
  private async installBinary(agent: RegistryAgent, target: BinaryTarget, kind: ArchiveKind, allowHttp: boolean): Promise<{ entry: AgentEntry; dir: string }> {
    const agentDir = this.agentDir(agent.id);
    await fs.promises.mkdir(agentDir, { recursive: true });
    const staging = await fs.promises.mkdtemp(path.join(agentDir, '.install-'));
    try {
      const archive = path.join(staging, 'download');
      const root = path.join(staging, 'root');
      await vscode.window.withProgress({
        location: vscode.ProgressLocation.Notification, cancellable: true,
        title: vscode.l10n.t('Installing {0} {1}', agent.name, agent.version),
      }, async (progress, token) => {
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort());
        try {
          let shown = 0;
          const got = await downloadToFile(target.archive, archive, {
            maxBytes: ARCHIVE_MAX_BYTES, idleTimeoutMs: DOWNLOAD_IDLE_MS, signal: abort.signal, allowHttp,
            onProgress: (received, total) => {
              const pct = total ? Math.floor((received / total) * 100) : 0;
              progress.report({
                message: total ? vscode.l10n.t('downloading: {0} of {1} MB', mb(received), mb(total)) : vscode.l10n.t('downloading: {0} MB', mb(received)),
                increment: pct > shown ? pct - shown : undefined,
              });
              shown = Math.max(shown, pct);
            },
          });
          this.log.info(`Agent registry: downloaded ${target.archive} (${got.bytes} bytes, sha256 ${got.sha256})`);
          if (target.sha256 && got.sha256 !== target.sha256) {
            throw new Error(vscode.l10n.t('the download does not match the registry\'s checksum (expected SHA-256 {0}, got {1})', target.sha256, got.sha256));
          }
          progress.report({ message: vscode.l10n.t('unpacking') });
          await extractArchive(archive, kind, root, target.cmd);
        } finally {
          sub.dispose();
        }
      });
      await this.checkProgram(root, target.cmd);
      const dir = path.join(agentDir, agent.version);
      const running = await this.runningFromMessage(dir);
      if (running) throw new Error(running);
      await fs.promises.rm(dir, { recursive: true, force: true });
      await fs.promises.rename(root, dir);
      return { entry: binaryEntry(target, dir), dir };
    } finally {
      await fs.promises.rm(staging, { recursive: true, force: true });
      // A first install that failed leaves no empty agents/<id>/ behind.
      await fs.promises.rmdir(agentDir).catch(() => undefined);
    }
  }

  /** The registry's `cmd` must be a regular file inside the unpacked folder; it is made executable. */
  private async checkProgram(root: string, cmd: string): Promise<void> {
    const file = path.join(root, ...cmd.split('/'));
    let real: string;
    try {
      real = await fs.promises.realpath(file);
    } catch {
      throw new Error(vscode.l10n.t('the archive has no {0}', cmd));
    }
    if (!isInside(await fs.promises.realpath(root), real) || !(await fs.promises.stat(real)).isFile()) {
      throw new Error(vscode.l10n.t('{0} in the archive is not a program file inside it', cmd));
    }
    if (process.platform !== 'win32') {
      const mode = (await fs.promises.stat(real)).mode & 0o7777;
      await fs.promises.chmod(real, mode | 0o755);
    }
  }
}

const mb = (n: number) => (n / 1024 / 1024).toFixed(1);

/** True when `command` is a file inside `dir` (symbolic links resolved when they can be). */
function runsFrom(dir: string, command: string): boolean {
  if (!path.isAbsolute(command)) return false;
  if (isInside(dir, command)) return true;
  try {
    return isInside(fs.realpathSync(dir), fs.realpathSync(command));
  } catch {
    return false;
  }
}
