// Who starts the checkpoints' git processes. Node's spawn forks the calling process, synchronously,
// in its only JavaScript thread: for the extension host (hundreds of MB resident) that fork alone
// blocks it ~20 ms per git process (bench/checkpoint), and a round of checkpoints runs six or more.
// So on Linux and macOS the git processes are started by one small long-lived helper process (plain
// Node, ~40 MB): the host sends it each command over an IPC channel and gets the exit, stdout and
// stderr back; the commands, their environment, folder and input are exactly those the host would
// run. The helper ends with the host: it exits when the channel closes (however the host ended) and
// carries the host's process tag, so the watchdog (acp/processGuard.ts) sweeps it too. Should it die
// or fail to start, what it had not answered runs directly (every checkpoint command may run twice:
// add, write-tree, update-ref, hash-object, diff-tree, cat-file). Windows creates processes without
// a fork: there git runs directly. Node only (no `vscode`): the benchmark and unit tests run it.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { PROC_TAG_VAR } from '../../acp/processTree';

export interface GitRun {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Written to git's standard input, then closed (undefined: left open and unused, as execFile does). */
  readonly input?: string;
  readonly maxBuffer: number;
}

export interface GitResult {
  /** Set when git could not start, exited non-zero, or printed more than maxBuffer. */
  readonly error?: string;
  readonly stdout: Buffer;
  readonly stderr: Buffer;
}

export interface GitRunner {
  run(file: string, args: readonly string[], opts: GitRun): Promise<GitResult>;
  dispose(): void;
}

/** Runs git from this process (what the helper itself does for each command). */
export function runDirect(file: string, args: readonly string[], opts: GitRun): Promise<GitResult> {
  return runWith(execFile, file, args, opts);
}

/** runDirect with its execFile passed in: the helper runs this function from its source. */
function runWith(exec: typeof execFile, file: string, args: readonly string[], opts: GitRun): Promise<GitResult> {
  return new Promise(resolve => {
    const child = exec(file, args, { cwd: opts.cwd, env: opts.env, encoding: 'buffer', maxBuffer: opts.maxBuffer, windowsHide: true },
      (err, stdout, stderr) => resolve({ error: err ? err.message : undefined, stdout, stderr }));
    // A git that exits before reading all of its input closes the pipe: the write's EPIPE is not
    // news (git's own exit status and stderr are), and unhandled it ends the process.
    child.stdin?.on('error', () => { /* reported by the exit */ });
    if (opts.input !== undefined) child.stdin?.end(opts.input);
  });
}

export const directRunner: GitRunner = { run: runDirect, dispose: () => undefined };

/** The helper, run with `node -e <source>`: one message per command, answered with the same id. */
export const HELPER_SOURCE = String.raw`
const runWith = (${runWith.toString()});
const { execFile } = require('child_process');
const running = new Set();
// Each command's git is tracked (ended with the helper) and carries the helper's process tag (the
// watchdog's sweep finds it too).
const tracked = (...a) => { const c = execFile(...a); running.add(c); c.on('exit', () => running.delete(c)); return c; };
const tag = process.env.${PROC_TAG_VAR};
process.on('message', m => {
  const env = tag ? { ...m.env, ${PROC_TAG_VAR}: tag } : m.env;
  runWith(tracked, m.file, m.args, { ...m, env }).then(r => { if (process.connected) process.send({ id: m.id, ...r }); });
});
// The host is gone (however it ended: the kernel closes the channel), or ends the helper: so do the
// commands still running (SIGTERM: git removes its lock files on it), then the helper.
const end = () => { for (const c of running) c.kill('SIGTERM'); process.exit(0); };
process.on('disconnect', end);
process.on('SIGTERM', end);
`;

interface Pending {
  readonly file: string;
  readonly args: readonly string[];
  readonly opts: GitRun;
  readonly resolve: (r: GitResult) => void;
}

export interface HelperOptions {
  /** The Node to run the helper with (this process's own binary by default). */
  readonly node?: string;
  /** Added to the helper's environment (the host's process tag); git's own environment is each command's. */
  readonly env?: Readonly<Record<string, string>>;
}

/** Runs git through the helper process; see the top of this file. */
export class HelperRunner implements GitRunner {
  private child: ChildProcess | undefined;
  private readonly pending = new Map<number, Pending>();
  private seq = 0;
  private failures = 0;
  private disposed = false;

  constructor(private readonly options: HelperOptions = {}) {}

  /** The helper's pid once started (tests). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  run(file: string, args: readonly string[], opts: GitRun): Promise<GitResult> {
    const child = this.ensure();
    if (!child) return runDirect(file, args, opts);
    return new Promise(resolve => {
      const id = ++this.seq;
      this.pending.set(id, { file, args, opts, resolve });
      // While an answer is awaited, the channel keeps this process alive (idle, it does not).
      if (this.pending.size === 1) child.channel?.ref();
      child.send({ id, file, args, cwd: opts.cwd, env: opts.env, input: opts.input, maxBuffer: opts.maxBuffer }, err => {
        if (err) this.lost(child);
      });
    });
  }

  private ensure(): ChildProcess | undefined {
    if (this.child) return this.child;
    // Three helpers lost: git runs directly from then on.
    if (this.disposed || this.failures >= 3) return undefined;
    let child: ChildProcess;
    try {
      child = spawn(this.options.node ?? process.execPath, ['-e', HELPER_SOURCE], {
        // The Electron binary of desktop VS Code runs as plain Node with this variable.
        env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', ...this.options.env },
        stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
        serialization: 'advanced',
        windowsHide: true,
      });
    } catch {
      this.failures++;
      return undefined;
    }
    child.on('message', (m: { id: number; error?: string; stdout: Uint8Array; stderr: Uint8Array }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (!this.pending.size) child.channel?.unref();
      p.resolve({ error: m.error, stdout: toBuffer(m.stdout), stderr: toBuffer(m.stderr) });
    });
    child.on('error', () => this.lost(child));
    child.on('exit', () => this.lost(child));
    // Neither the helper nor its channel keep this process alive.
    child.unref();
    child.channel?.unref();
    this.child = child;
    return child;
  }

  /** The helper died (or could not start): what it had not answered runs directly. */
  private lost(child: ChildProcess): void {
    if (this.child !== child) return;
    this.child = undefined;
    if (!this.disposed) this.failures++;
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) void runDirect(p.file, p.args, p.opts).then(p.resolve);
  }

  dispose(): void {
    this.disposed = true;
    const child = this.child;
    if (!child) return;
    this.lost(child);
    child.kill();
  }
}

function toBuffer(b: Uint8Array | undefined): Buffer {
  if (!b) return Buffer.alloc(0);
  return Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}

/**
 * The runner for this platform: the helper where spawning forks this process. The environment
 * variable SWITCHBOARD_CHECKPOINTS_GIT=direct runs git directly (bench/checkpoint compares both).
 */
export function createGitRunner(options: HelperOptions = {}, env: Readonly<Record<string, string | undefined>> = process.env): GitRunner {
  return process.platform === 'win32' || env.SWITCHBOARD_CHECKPOINTS_GIT === 'direct' ? directRunner : new HelperRunner(options);
}
