// Nothing an agent started may outlive the extension host, however the host ends (crash, SIGKILL,
// an OOM kill: no deactivate() then, no exit handler). One tiny watchdog process per extension host
// reads a pipe from the host, and when that pipe closes (the host is gone, whatever killed it) or
// its parent changes, it ends every process of this host: each one carries the host's tag in its
// environment (SWITCHBOARD_PROC_TAG=<host>.<n>, see newTag), which a new session, a double fork and
// re-parenting all keep, and the process groups it was told about (+pid/-pid lines) are swept too;
// SIGTERM, then after a grace period the freeze-and-kill sweep of processTree.ts. The watchdog leads
// its own session, so a kill of the host's group does not take it along before it has done its job.
// No VS Code import: unit-tested in plain Node.
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { selectTree } from '../common/processTree';
import { killFrozen, PROC_TAG_VAR, readProcessTable } from './processTree';

/**
 * The watchdog, run with `node -e <source> <graceMs> <host tag>`: `+<pid>` watches the process group
 * of pid, `-<pid>` forgets it. The table functions are the very ones the host uses, from their source.
 */
export const WATCHDOG_SOURCE = String.raw`
const fs = require('fs');
const { spawnSync } = require('child_process');
const readProcessTable = (${readProcessTable.toString()});
const selectTree = (${selectTree.toString()});
const killFrozen = (${killFrozen.toString()});
const grace = Number(process.argv[1]) || 2000;
const hostTag = process.argv[2] || '';
const win = process.platform === 'win32';
const parent = process.ppid;
// Everything tagged started after the host: the environment of older processes is not read.
const hostStart = (() => { try { const s = fs.readFileSync('/proc/' + parent + '/stat', 'latin1'); return Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[19]) || 0; } catch { return 0; } })();
const table = () => readProcessTable(fs, spawnSync, process.platform, ${JSON.stringify(PROC_TAG_VAR)}, hostStart);
// The host's own group and session are never swept, even once the host is gone (commands keep its session).
const host = win ? undefined : table().find(p => p.pid === parent);
const groups = new Set();
let rest = '';
let ending = false;
const kill = (pid, sig) => {
  try {
    if (win) spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true, timeout: 5000 });
    else process.kill(pid, sig);
  } catch {}
};
const mine = () => selectTree(table(), {
  tags: hostTag ? [hostTag + '.'] : [], groups: [...groups], spare: [process.pid],
  spareGroups: host ? [host.pgrp] : [], spareSessions: host ? [host.session] : [],
});
const end = () => {
  if (ending) return;
  ending = true;
  if (win) { for (const pid of groups) kill(pid); process.exit(0); }
  for (const pid of groups) kill(-pid, 'SIGTERM');
  for (const pid of mine()) kill(pid, 'SIGTERM');
  setTimeout(() => {
    for (const pid of groups) kill(-pid, 'SIGKILL');
    killFrozen(mine, kill);
    process.exit(0);
  }, grace);
};
process.stdin.setEncoding('utf8');
process.stdin.on('data', chunk => {
  const lines = (rest + chunk).split('\n');
  rest = lines.pop();
  for (const line of lines) {
    const pid = Number(line.slice(1));
    if (!Number.isSafeInteger(pid) || pid <= 0) continue;
    if (line[0] === '+') groups.add(pid); else if (line[0] === '-') groups.delete(pid);
  }
});
process.stdin.on('end', end);
process.stdin.on('close', end);
process.stdin.on('error', end);
for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(sig, end);
if (!win) setInterval(() => { if (process.ppid !== parent) end(); }, 1000);
`;

export interface GuardOptions {
  /** The Node to run the watchdog with (the extension host's own binary by default). */
  readonly node?: string;
  /** SIGTERM → SIGKILL delay once the host is gone. */
  readonly graceMs?: number;
}

export class ProcessGuard {
  private child: ChildProcess | undefined;
  private readonly watched = new Set<number>();
  /** This host's part of every tag: random, so no other host's processes ever match. */
  readonly hostTag = randomBytes(8).toString('hex');
  private tags = 0;

  constructor(private readonly options: GuardOptions = {}) {}

  /** The watchdog's pid once started (tests). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Ends the process group led by `pid` (on Windows: the tree under it) if the host dies first. */
  watch(pid: number | undefined): void {
    if (pid === undefined || this.watched.has(pid)) return;
    this.watched.add(pid);
    this.send(`+${pid}\n`);
  }

  /**
   * A new tag for one command or agent, to put in its environment as PROC_TAG_VAR (last, over any
   * value the agent passed): the watchdog ends whatever carries this host's tags once the host is
   * gone; the tag's owner ends what carries its own (endTree) when it is killed or released.
   */
  newTag(): string {
    return `${this.hostTag}.${++this.tags}`;
  }

  /** The group is gone (or swept by its owner): nothing to do for it any more. */
  unwatch(pid: number | undefined): void {
    if (pid === undefined || !this.watched.delete(pid)) return;
    this.send(`-${pid}\n`);
  }

  private send(line: string): void {
    const child = this.ensure();
    if (child?.stdin?.writable) child.stdin.write(line);
  }

  private ensure(): ChildProcess | undefined {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) return this.child;
    let child: ChildProcess;
    try {
      child = spawn(this.options.node ?? process.execPath, ['-e', WATCHDOG_SOURCE, String(this.options.graceMs ?? 2000), this.hostTag], {
        // The Electron binary of desktop VS Code runs as plain Node with this variable.
        env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
        stdio: ['pipe', 'ignore', 'ignore'],
        detached: true,
        windowsHide: true,
      });
    } catch {
      return undefined;
    }
    child.on('error', () => { /* no watchdog: deactivate() still stops everything on a normal exit */ });
    child.stdin!.on('error', () => { /* the watchdog died; the next watch() starts a new one */ });
    // Neither the watchdog nor its pipe keep the extension host alive.
    child.unref();
    (child.stdin as unknown as { unref?(): void }).unref?.();
    this.child = child;
    // A restarted watchdog learns every group still watched.
    if (this.watched.size) child.stdin!.write([...this.watched].map(p => `+${p}\n`).join(''));
    return child;
  }
}

/** The watchdog of this extension host. */
export const processGuard = new ProcessGuard();
