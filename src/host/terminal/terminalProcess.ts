// One command an agent runs: spawned with child_process (exact bytes, exact exit code), stdout and
// stderr kept in a bounded OutputBuffer for the agent and handed to listeners (the integrated
// terminal). On POSIX the command leads its own process group, so kill/interrupt reach everything it
// started: SIGTERM to the group, then SIGKILL after a grace period if anything is still running.
// The group is made by a tiny launcher that keeps the extension host's session (see
// viaGroupLauncher: a new session is a new scheduler group and halves the speed of a flood of
// output on a busy machine); without it (no /usr/bin/perl, or the host has a controlling terminal,
// which a command in a background group of that session could stop on) a new session, as before.
// The command also carries a tag of its own in its environment (acp/processTree.ts): kill and
// release end whatever carries it, and its children, however it detached (setsid, a daemon's
// double fork, nohup & disown). Until then the extension host's watchdog (acp/processGuard.ts)
// holds the group and knows the host's tags, so all of it also ends when the host is killed.
// No VS Code import: this runs (and is unit-tested) in plain Node.
import { ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import type * as acp from '@agentclientprotocol/sdk/unstable';
import { processGuard } from '../../acp/processGuard';
import { endTree, PROC_TAG_VAR, startTimeOf, treeOf } from '../../acp/processTree';
import type { TreeQuery } from '../../common/processTree';
import { findProgram, OutputBuffer, planTerminalSpawn, terminalEnv, toExitStatus, viaGroupLauncher } from '../../common/terminal';

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
/** Output kept for the first listener when it subscribes after the command printed (see `early`). */
const EARLY_BYTES = 64 * 1024;
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
  /** An array, not a Set: iterating it per chunk allocates nothing. */
  private listeners: ((chunk: Uint8Array) => void)[] = [];
  /** Output read before anyone listened: its last EARLY_BYTES, handed to the first listener. */
  private early: Uint8Array[] | undefined = [];
  private earlyBytes = 0;
  private readonly graceMs: number;
  /** When the command started: nothing older carries its tag (startTimeOf). */
  private readonly since: number;

  private constructor(private readonly child: ChildProcessWithoutNullStreams, opts: TerminalProcessOptions, shell: string | undefined, private readonly tag: string) {
    this.pid = child.pid!;
    this.since = startTimeOf(this.pid);
    processGuard.watch(this.pid);
    this.shell = shell;
    this.graceMs = opts.graceMs ?? 2000;
    this.output = new OutputBuffer(opts.outputByteLimit);
    const onData = (chunk: Buffer) => {
      this.output.push(chunk);
      if (this.early) this.keepEarly(chunk);
      const listeners = this.listeners;
      for (let i = 0; i < listeners.length; i++) listeners[i](chunk);
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
    const direct = planTerminalSpawn(opts.command, opts.args, {
      platform: process.platform,
      env: process.env,
      isFile: p => { try { return fs.statSync(p).isFile(); } catch { return false; } },
    });
    const tag = processGuard.newTag();
    // The tag last: a variable of the same name from the agent cannot take the command out of the sweep.
    const env = terminalEnv(process.env, [...opts.env, { name: PROC_TAG_VAR, value: tag }], process.platform);
    const launcher = isWindows ? undefined : groupLauncher();
    if (launcher) {
      // The launcher always starts: the command's own start errors are found here, by name.
      const program = findProgram(direct.file, { platform: process.platform, env }, opts.cwd, checkExecutable);
      if ('problem' in program) {
        return Promise.reject(program.problem === 'notFound'
          ? new CommandStartError(`Command not found: ${direct.shell ?? opts.command}`, true)
          : new CommandStartError(`Could not start ${opts.command}: permission denied`, false));
      }
    }
    const { plan, env: spawnEnv } = launcher ? viaGroupLauncher(direct, launcher, env) : { plan: direct, env };
    return new Promise((resolve, reject) => {
      let child: ChildProcessWithoutNullStreams;
      try {
        child = spawn(plan.file, plan.args, {
          cwd: opts.cwd,
          env: spawnEnv,
          stdio: ['pipe', 'pipe', 'pipe'],
          windowsVerbatimArguments: plan.verbatim,
          windowsHide: true,
          // Without the launcher, a new session makes the process group.
          detached: !isWindows && !launcher,
        });
      } catch (err) {
        reject(new CommandStartError(`Could not start ${opts.command}: ${(err as Error).message}`, false));
        return;
      }
      child.once('error', (err: NodeJS.ErrnoException) => {
        reject(err.code === 'ENOENT'
          ? new CommandStartError(`Command not found: ${direct.shell ?? opts.command}`, true)
          : new CommandStartError(`Could not start ${opts.command}: ${err.message}`, false));
      });
      child.once('spawn', () => resolve(new TerminalProcess(child, opts, direct.shell, tag)));
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

  /** Every chunk of output from now on; the first listener also gets what came before it (see `early`). */
  onData(listener: (chunk: Uint8Array) => void): { dispose(): void } {
    const early = this.early;
    this.early = undefined;
    for (const chunk of early ?? []) listener(chunk);
    this.listeners = [...this.listeners, listener];
    return { dispose: () => { this.listeners = this.listeners.filter(l => l !== listener); } };
  }

  private keepEarly(chunk: Uint8Array): void {
    const early = this.early!;
    early.push(chunk);
    this.earlyBytes += chunk.length;
    while (this.earlyBytes - early[0].length >= EARLY_BYTES) this.earlyBytes -= early.shift()!.length;
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
    } else {
      // Everything carrying the command's tag, its group, and their children: SIGTERM, then SIGKILL.
      await endTree(this.tree(), { graceMs: this.graceMs, since: this.since, pending: () => !this.leaderExited });
    }
    if (!this.leaderExited) await this.until(() => this.leaderExited, 5000);
    // Swept (endTree returns once nothing of it runs): nothing is left for the watchdog to end.
    if (this.leaderExited) processGuard.unwatch(this.pid);
    // The exit status is set once the output drained (at most DRAIN_MS after exit).
    await Promise.race([this.exited, delay(DRAIN_MS * 2)]);
  }

  /** What belongs to this command: its tag, its group; never the host nor the watchdog. */
  private tree(): TreeQuery {
    return { tags: [this.tag], groups: [this.pid], spare: [process.pid, ...(processGuard.pid ? [processGuard.pid] : [])] };
  }

  /** Whether anything the command started still runs (zombies do not count), detached or not. */
  groupRunning(): boolean {
    if (isWindows) return !this.leaderExited;
    return treeOf(this.tree(), this.since).length > 0;
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

const PERL = '/usr/bin/perl';
let launcherChecked: string | null | undefined;

/**
 * The process-group launcher (see viaGroupLauncher), checked once: /usr/bin/perl runs and can make
 * a process group, and the extension host has no controlling terminal (a background group of a
 * session with one would stop on reading it; a new session has none). Undefined: use a new session.
 */
export function groupLauncher(): string | undefined {
  if (launcherChecked === undefined) {
    launcherChecked = null;
    try {
      fs.closeSync(fs.openSync('/dev/tty', 'r'));
    } catch {
      const probe = spawnSync(PERL, ['-e', 'setpgrp(0, 0); exit(getpgrp() == $$ ? 42 : 1)'], { stdio: 'ignore', timeout: 5000, env: {} });
      if (probe.status === 42) launcherChecked = PERL;
    }
  }
  return launcherChecked ?? undefined;
}

/** As exec sees a path: missing, or there but not runnable (a directory, no x permission). */
function checkExecutable(p: string): 'ok' | 'missing' | 'notExecutable' {
  let st: fs.Stats;
  try { st = fs.statSync(p); } catch { return 'missing'; }
  if (!st.isFile()) return 'notExecutable';
  try { fs.accessSync(p, fs.constants.X_OK); return 'ok'; } catch { return 'notExecutable'; }
}

function taskkill(pid: number, force: boolean): void {
  try { spawnSync('taskkill', ['/pid', String(pid), '/T', ...(force ? ['/F'] : [])], { windowsHide: true, timeout: 5000 }); } catch { /* gone */ }
}

const delay = (ms: number) => new Promise<void>(r => setTimeout(r, ms));
