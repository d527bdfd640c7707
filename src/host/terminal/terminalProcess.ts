// One command an agent runs: spawned with child_process (exact bytes, exact exit code), stdout and
// stderr kept in a bounded OutputBuffer for the agent and handed to listeners (the integrated
// terminal). On POSIX the command leads its own process group, so kill/interrupt reach everything it
// started: SIGTERM to the group, then SIGKILL after a grace period if anything is still running.
// Until then the extension host's watchdog (acp/processGuard.ts) holds the group, so it also ends
// when the host is killed.
// No VS Code import: this runs (and is unit-tested) in plain Node.
import { ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import type * as acp from '@agentclientprotocol/sdk';
import { processGuard } from '../../acp/processGuard';
import { isRunningState, OutputBuffer, parseProcStat, planTerminalSpawn, terminalEnv, toExitStatus } from '../../common/terminal';

export interface TerminalProcessOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: readonly { name: string; value: string }[];
  /** Absolute and an existing directory (checked by the caller). */
  readonly cwd: string;
  readonly outputByteLimit: number;
  /** SIGTERM → SIGKILL delay. */
  readonly graceMs?: number;
}

export class CommandStartError extends Error {
  constructor(message: string, readonly notFound: boolean) {
    super(message);
  }
}

/** After the command exits, how long to wait for its output pipes to drain (a background child may hold them open). */
const DRAIN_MS = 250;
const POLL_MS = 40;
const isWindows = process.platform === 'win32';

export class TerminalProcess {
  readonly output: OutputBuffer;
  /** Resolves once the command exited and its output was read. */
  readonly exited: Promise<acp.TerminalExitStatus>;
  readonly pid: number;
  readonly shell: string | undefined;
  private status: acp.TerminalExitStatus | undefined;
  private leaderExited = false;
  private killing: Promise<void> | undefined;
  private killRequested = false;
  private readonly listeners = new Set<(chunk: Uint8Array) => void>();
  private readonly graceMs: number;

  private constructor(private readonly child: ChildProcessWithoutNullStreams, opts: TerminalProcessOptions, shell: string | undefined) {
    this.pid = child.pid!;
    processGuard.watch(this.pid);
    this.shell = shell;
    this.graceMs = opts.graceMs ?? 2000;
    this.output = new OutputBuffer(opts.outputByteLimit);
    const onData = (chunk: Buffer) => {
      this.output.push(chunk);
      for (const l of this.listeners) l(chunk);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    // EPIPE when the command exits while the user types: not an error worth more than silence.
    child.stdin.on('error', () => { /* the command is gone */ });
    const drained = (s: NodeJS.ReadableStream) => new Promise<void>(r => { s.once('close', r); s.once('end', r); });
    const outputDone = Promise.all([drained(child.stdout), drained(child.stderr)]);
    this.exited = new Promise(resolve => {
      child.once('exit', (code, signal) => {
        this.leaderExited = true;
        const status = toExitStatus(code, signal);
        let timer: NodeJS.Timeout | undefined;
        void Promise.race([outputDone, new Promise<void>(r => { timer = setTimeout(r, DRAIN_MS); })]).then(() => {
          clearTimeout(timer);
          this.status = status;
          resolve(status);
        });
      });
    });
  }

  /** Spawns; resolves once the OS started it, rejects with a CommandStartError (e.g. not found). */
  static start(opts: TerminalProcessOptions): Promise<TerminalProcess> {
    const plan = planTerminalSpawn(opts.command, opts.args, {
      platform: process.platform,
      env: process.env,
      isFile: p => { try { return fs.statSync(p).isFile(); } catch { return false; } },
    });
    return new Promise((resolve, reject) => {
      let child: ChildProcessWithoutNullStreams;
      try {
        child = spawn(plan.file, plan.args, {
          cwd: opts.cwd,
          env: terminalEnv(process.env, opts.env, process.platform),
          stdio: ['pipe', 'pipe', 'pipe'],
          windowsVerbatimArguments: plan.verbatim,
          windowsHide: true,
          detached: !isWindows,
        });
      } catch (err) {
        reject(new CommandStartError(`Could not start ${opts.command}: ${(err as Error).message}`, false));
        return;
      }
      child.once('error', (err: NodeJS.ErrnoException) => {
        reject(err.code === 'ENOENT'
          ? new CommandStartError(`Command not found: ${plan.shell ?? opts.command}`, true)
          : new CommandStartError(`Could not start ${opts.command}: ${err.message}`, false));
      });
      child.once('spawn', () => resolve(new TerminalProcess(child, opts, plan.shell)));
    });
  }

  /** Set once the command exited and its output was read. */
  get exitStatus(): acp.TerminalExitStatus | undefined {
    return this.status;
  }

  /** True when the exit came from kill()/release (shown as "killed" rather than "terminated"). */
  get wasKilled(): boolean {
    return this.killRequested;
  }

  onData(listener: (chunk: Uint8Array) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Keyboard input from the integrated terminal. */
  write(data: string): void {
    if (this.leaderExited || this.child.stdin.destroyed || this.child.stdin.writableEnded) return;
    this.child.stdin.write(data);
  }

  /** Ctrl+D: end of input. */
  endInput(): void {
    if (!this.child.stdin.writableEnded) this.child.stdin.end();
  }

  /** Ctrl+C: SIGINT to the whole group, as a terminal's line discipline would send it. */
  interrupt(): void {
    if (isWindows) { void this.kill(); return; }
    this.signalGroup('SIGINT');
  }

  /**
   * Ends the command and everything in its process group: SIGTERM, then SIGKILL once the grace
   * period has passed with anything still running. Resolves when the command has exited (its exit
   * status is then set). Also sweeps the group after the command itself exited (background jobs).
   */
  kill(): Promise<void> {
    this.killRequested ||= !this.leaderExited;
    this.killing ??= this.doKill().finally(() => { this.killing = undefined; });
    return this.killing;
  }

  private async doKill(): Promise<void> {
    if (isWindows) {
      if (!this.leaderExited) {
        taskkill(this.pid, false);
        if (!(await this.until(() => this.leaderExited, this.graceMs))) taskkill(this.pid, true);
      }
    } else if (this.groupRunning()) {
      this.signalGroup('SIGTERM');
      const settled = await this.until(() => this.leaderExited && !this.groupRunning(), this.graceMs);
      if (!settled) this.signalGroup('SIGKILL');
    }
    if (!this.leaderExited) await this.until(() => this.leaderExited, 5000);
    // Swept: nothing of the group is left for the watchdog to end.
    if (this.leaderExited && !this.groupRunning()) processGuard.unwatch(this.pid);
    // The exit status is set once the output drained (at most DRAIN_MS after exit).
    await Promise.race([this.exited, delay(DRAIN_MS * 2)]);
  }

  /** Whether anything in the command's process group still runs (zombies do not count). */
  groupRunning(): boolean {
    if (isWindows) return !this.leaderExited;
    try { process.kill(-this.pid, 0); } catch { return false; }
    if (process.platform !== 'linux') return true;
    return groupMembers(this.pid).some(p => isRunningState(p.state));
  }

  private signalGroup(sig: NodeJS.Signals): void {
    try { process.kill(-this.pid, sig); } catch {
      if (!this.leaderExited) try { this.child.kill(sig); } catch { /* gone */ }
    }
  }

  private async until(done: () => boolean, ms: number): Promise<boolean> {
    const end = Date.now() + ms;
    while (!done()) {
      if (Date.now() >= end) return false;
      await delay(POLL_MS);
    }
    return true;
  }
}

/** Processes of a process group, from /proc (Linux). */
export function groupMembers(pgid: number): { pid: number; state: string }[] {
  const out: { pid: number; state: string }[] = [];
  let entries: string[];
  try { entries = fs.readdirSync('/proc'); } catch { return out; }
  for (const e of entries) {
    if (e.charCodeAt(0) < 48 || e.charCodeAt(0) > 57) continue;
    try {
      const st = parseProcStat(fs.readFileSync(`/proc/${e}/stat`, 'utf8'));
      if (st && st.pgrp === pgid) out.push({ pid: st.pid, state: st.state });
    } catch { /* exited meanwhile */ }
  }
  return out;
}

function taskkill(pid: number, force: boolean): void {
  try { spawnSync('taskkill', ['/pid', String(pid), '/T', ...(force ? ['/F'] : [])], { windowsHide: true, timeout: 5000 }); } catch { /* gone */ }
}

const delay = (ms: number) => new Promise<void>(r => setTimeout(r, ms));
