// The agent as an operating-system process: spawn with the user's environment, collect stderr,
// and stop it for sure (close stdin, SIGTERM, SIGKILL after a grace period; on POSIX the whole
// process group, so `npx` wrappers and their children go too; and whatever carries the agent's tag
// in its environment, so a child the agent detached goes too: see processTree.ts). The group is
// watched by the extension host's watchdog (processGuard.ts), which also knows the host's tags, so it
// all ends even if the host is killed.
import { ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AgentSpec, runsRegistryPackage } from '../common/agentConfig';
import { LineTail } from '../common/lineTail';
import type { Logger } from '../common/logger';
import { redact, redactingLogger } from '../common/signIn';
import { planSpawn } from '../common/spawnPlan';
import { terminalEnv } from '../common/terminal/spawnPlan';
import { processGuard } from './processGuard';
import { endTree, PROC_TAG_VAR, startTimeOf } from './processTree';

export interface AgentExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** True when we asked it to stop. */
  readonly requested: boolean;
  /** Why Switchboard ended it (its connection broke), when it did. */
  readonly failure?: string;
}

export class AgentSpawnError extends Error {
  constructor(readonly command: string, readonly notFound: boolean, cause: Error) {
    super(notFound ? `Command not found: ${command}` : `Could not start ${command}: ${cause.message}`);
  }
}

export class AgentProcess {
  /** The agent's last stderr lines, the keys it was started with redacted. */
  readonly stderrTail: LineTail;
  readonly exited: Promise<AgentExit>;
  private stopRequested = false;
  private failureReason: string | undefined;
  private exitInfo: AgentExit | undefined;
  /** The sweep that follows the exit (see sweep). */
  private swept: Promise<void> | undefined;
  /** When the agent started: nothing older carries its tag (startTimeOf). */
  private readonly since: number;

  /**
   * Where agents that run a package from a registry (`npx`, `uvx`, …) are started, instead of the
   * workspace: there, a package of the same name in the workspace's node_modules (or its .npmrc,
   * uv.toml) would decide what runs. Set by the composition root; a folder of our own.
   */
  static launchDir: string | undefined;

  private constructor(readonly spec: AgentSpec, readonly child: ChildProcessWithoutNullStreams, private readonly log: Logger, readonly secrets: readonly string[], private readonly tag: string) {
    this.stderrTail = new LineTail(20, 500, line => redact(line, secrets));
    this.since = startTimeOf(child.pid);
    processGuard.watch(child.pid);
    this.exited = new Promise(resolve => {
      child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal, requested: this.stopRequested, ...(this.failureReason ? { failure: this.failureReason } : {}) };
        log.info(`Agent "${spec.name}" (pid ${child.pid}) exited with ${signal ?? `code ${code}`}`);
        this.swept = this.sweep();
        resolve(this.exitInfo);
      });
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      this.stderrTail.push(text);
      for (const line of text.split(/\r?\n/)) if (line.trim()) log.info(`[${spec.name} stderr] ${line}`);
    });
    // EPIPE when the agent dies while we write is reported through `exit`; don't crash the host.
    child.stdin.on('error', err => log.warn(`Agent stdin: ${err.message}`));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get hasExited(): boolean {
    return this.exitInfo !== undefined;
  }

  /** Resolves once all the agent wrote to stderr was read (after it exited: `exit` may come first), or after `ms`. */
  stderrRead(ms = 500): Promise<void> {
    const stderr = this.child.stderr;
    if (stderr.closed) return Promise.resolve();
    return new Promise(resolve => {
      const timer = setTimeout(resolve, ms);
      stderr.once('close', () => { clearTimeout(timer); resolve(); });
    });
  }

  /** Set once the connection broke and the process is being stopped for it. */
  get failure(): string | undefined {
    return this.failureReason;
  }

  /** Where the agent's command runs: the workspace, or for a registry package a folder of our own. */
  static cwdFor(spec: AgentSpec, workspaceCwd: string): string {
    return runsRegistryPackage(spec.command, spec.args) ? neutralDir(AgentProcess.launchDir) : workspaceCwd;
  }

  /**
   * Spawns and resolves once the OS has started the process, or rejects with an AgentSpawnError.
   * `secretEnv` (the keys the user signed in with) goes on top of the configured env; never logged.
   */
  static start(spec: AgentSpec, workspaceCwd: string, log: Logger, secretEnv: Readonly<Record<string, string>> = {}): Promise<AgentProcess> {
    const plan = planSpawn(spec.command, spec.args, {
      platform: process.platform,
      env: process.env,
      isFile: p => { try { return fs.statSync(p).isFile(); } catch { return false; } },
      // A Windows .cmd shim is read to run what it wraps without cmd.exe (never a large file).
      readText: p => { try { return fs.statSync(p).size < 64 * 1024 ? fs.readFileSync(p, 'utf8') : undefined; } catch { return undefined; } },
    });
    const cwd = AgentProcess.cwdFor(spec, workspaceCwd);
    log.info(`Starting agent "${spec.name}": ${[spec.command, ...spec.args].join(' ')} (cwd ${cwd})`);
    if (plan.file !== spec.command) log.info(`Spawning ${[plan.file, ...plan.args].join(' ')}`);
    // The tag last: the configured env cannot take the agent out of the sweep.
    const tag = processGuard.newTag();
    return new Promise((resolve, reject) => {
      let child: ChildProcessWithoutNullStreams;
      try {
        child = spawn(plan.file, plan.args, {
          cwd,
          // The user's environment without VS Code's own process variables, plus the configured env.
          env: terminalEnv(process.env, [...Object.entries({ ...spec.env, ...secretEnv }).map(([name, value]) => ({ name, value })), { name: PROC_TAG_VAR, value: tag }], process.platform),
          stdio: ['pipe', 'pipe', 'pipe'],
          windowsVerbatimArguments: plan.verbatim,
          windowsHide: true,
          // Own process group on POSIX, so stop() reaches the agent's children as well.
          detached: process.platform !== 'win32',
        });
      } catch (err) {
        reject(new AgentSpawnError(spec.command, false, err as Error));
        return;
      }
      child.once('error', (err: NodeJS.ErrnoException) => {
        // Not found: the command, or the program its shim needs (an npm shim's `node`).
        reject(new AgentSpawnError(plan.needs ?? spec.command, err.code === 'ENOENT', err));
      });
      child.once('spawn', () => resolve(new AgentProcess(spec, child, redactingLogger(log, Object.values(secretEnv)), Object.values(secretEnv), tag)));
    });
  }

  /**
   * Stops the agent: stdin closed first (the polite ACP way), then SIGTERM, then SIGKILL.
   * Resolves when the process is gone.
   */
  async stop(graceMs = 2000): Promise<AgentExit> {
    this.stopRequested = true;
    if (!this.exitInfo) {
      this.child.stdin.end();
      if (!(await this.exitsWithin(Math.min(graceMs, 500)))) {
        this.signal('SIGTERM');
        if (!(await this.exitsWithin(graceMs))) this.signal('SIGKILL');
      }
    }
    const exit = await this.exited;
    // Children the agent left (an npx wrapper's real agent, a detached helper) must not outlive it.
    await this.swept;
    return exit;
  }

  /**
   * The connection broke (see AgentConnection.broken): ends the agent now, SIGTERM right away and
   * SIGKILL after the grace period; the exit carries `failure` so the chat can name it.
   */
  async fail(reason: string, graceMs = 2000): Promise<AgentExit> {
    if (!this.exitInfo && !this.stopRequested && !this.failureReason) {
      this.failureReason = reason;
      this.log.error(`Agent "${this.spec.name}" (pid ${this.pid}): ${reason}. Stopping it.`);
      this.child.stdin.end();
      this.signal('SIGTERM');
      if (!(await this.exitsWithin(graceMs))) this.signal('SIGKILL');
    }
    return this.exited;
  }

  /** After the agent exited: what is left of it (its group, its tag) gets SIGTERM, then SIGKILL; then the watchdog forgets it. */
  private async sweep(graceMs = 2000): Promise<void> {
    if (process.platform === 'win32') { processGuard.unwatch(this.pid); return; }
    try {
      await endTree({ tags: [this.tag], groups: this.pid ? [this.pid] : [], spare: [process.pid, ...(processGuard.pid ? [processGuard.pid] : [])] }, { graceMs, since: this.since });
    } catch (err) {
      this.log.warn(`Ending what agent "${this.spec.name}" left running: ${(err as Error).message}`);
    }
    processGuard.unwatch(this.pid);
  }

  private exitsWithin(ms: number): Promise<boolean> {
    return new Promise(resolve => {
      const timer = setTimeout(() => resolve(false), ms);
      void this.exited.then(() => { clearTimeout(timer); resolve(true); });
    });
  }

  private signal(sig: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      // Windows has no process groups; taskkill /T ends the tree (the agent behind a .cmd shim too).
      if (process.platform === 'win32') spawnSync('taskkill', ['/pid', String(pid), '/T', ...(sig === 'SIGKILL' ? ['/F'] : [])], { windowsHide: true, timeout: 5000 });
      else process.kill(-pid, sig);
    } catch {
      try { this.child.kill(sig); } catch { /* already gone */ }
    }
  }
}

/** A folder of our own with a package.json and a uv.toml, so npm and uv look no further up for a project. */
function neutralDir(base: string | undefined): string {
  const dir = path.join(base ?? path.join(os.homedir(), '.switchboard'), 'agent-launch');
  try {
    fs.mkdirSync(dir, { recursive: true });
    const pkg = path.join(dir, 'package.json');
    if (!fs.existsSync(pkg)) fs.writeFileSync(pkg, '{ "name": "switchboard-agent-launch", "private": true }\n');
    const uv = path.join(dir, 'uv.toml');
    if (!fs.existsSync(uv)) fs.writeFileSync(uv, '');
    return dir;
  } catch {
    return os.homedir();
  }
}
