// Ending everything a command or an agent started, however it detached (see common/processTree.ts
// for what belongs): the process table is read (Linux: /proc/<pid>/stat and /proc/<pid>/environ;
// macOS and other Unixes: `ps -E`), what belongs gets SIGTERM, and after a grace period whatever is
// left is frozen with SIGSTOP, the table read again until no new process appears (a process that
// forks while it is being killed cannot outrun the sweep), then SIGKILL.
// readProcessTable and killFrozen are self-contained (no imports, no module-level names): the
// watchdog (processGuard.ts) runs them from their source text, with selectTree.
// No VS Code import: unit-tested in plain Node.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { ProcEntry, selectTree, TreeQuery } from '../common/processTree';

/** The environment variable every spawned command and agent carries (see ProcessGuard.newTag). */
export const PROC_TAG_VAR = 'SWITCHBOARD_PROC_TAG';

/**
 * The processes of this machine as far as they can be read; tags from their environment. On Linux,
 * `since` (a start time from /proc/<pid>/stat, see startTimeOf) skips the environment of processes
 * started before it, which cannot carry a tag given later: reading a busy process's environment
 * waits for its memory map lock (tens of ms for a Chromium renderer on a loaded machine).
 */
export function readProcessTable(fsm: typeof fs, spawnSyncFn: typeof spawnSync, platform: NodeJS.Platform, tagVar: string, since = 0): ProcEntry[] {
  const out: ProcEntry[] = [];
  const key = tagVar + '=';
  if (platform === 'linux') {
    let names: string[];
    try { names = fsm.readdirSync('/proc'); } catch { return out; }
    // One small buffer for every stat line (half the CPU of readFileSync, which stats and allocates).
    const buf = Buffer.allocUnsafe(4096);
    for (const name of names) {
      const c = name.charCodeAt(0);
      if (c < 48 || c > 57) continue;
      let stat: string;
      let fd = -1;
      try {
        fd = fsm.openSync('/proc/' + name + '/stat', 'r');
        stat = buf.toString('latin1', 0, fsm.readSync(fd, buf, 0, buf.length, 0));
      } catch { continue; } finally { if (fd >= 0) fsm.closeSync(fd); }
      const close = stat.lastIndexOf(')');
      const f = stat.slice(close + 2).split(' ');
      const entry = { pid: Number(name), state: f[0], ppid: Number(f[1]), pgrp: Number(f[2]), session: Number(f[3]), tag: undefined as string | undefined };
      if (close < 0 || f.length < 4) continue;
      if (f[0] !== 'Z' && !(Number(f[19]) < since)) {
        // Only one's own processes are readable (EACCES otherwise): nothing of another user is ever tagged.
        try {
          const env = fsm.readFileSync('/proc/' + name + '/environ', 'latin1');
          const at = env.startsWith(key) ? 0 : env.indexOf('\0' + key) + 1;
          if (at > 0 || env.startsWith(key)) {
            const end = env.indexOf('\0', at);
            entry.tag = env.slice(at + key.length, end < 0 ? env.length : end);
          }
        } catch { /* exited, or not ours */ }
      }
      out.push(entry);
    }
    return out;
  }
  if (platform === 'win32') return out;
  // macOS / BSD: -E appends the environment (readable for one's own processes) to the command.
  let text = '';
  try {
    const r = spawnSyncFn('ps', ['-A', '-E', '-ww', '-o', 'pid=', '-o', 'ppid=', '-o', 'pgid=', '-o', 'stat=', '-o', 'command='], { encoding: 'latin1', maxBuffer: 64 * 1024 * 1024, timeout: 10_000 });
    text = String(r.stdout ?? '');
  } catch { return out; }
  for (const line of text.split('\n')) {
    const m = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s(.*)$/.exec(line);
    if (!m) continue;
    const at = m[5].indexOf(' ' + key);
    let tag: string | undefined;
    if (at >= 0) {
      const rest = m[5].slice(at + 1 + key.length);
      const space = rest.indexOf(' ');
      tag = space < 0 ? rest : rest.slice(0, space);
    }
    out.push({ pid: Number(m[1]), ppid: Number(m[2]), pgrp: Number(m[3]), session: 0, state: m[4].charAt(0), tag });
  }
  return out;
}

/**
 * SIGSTOP to what `list()` names, again until it names no process not stopped yet (children forked
 * meanwhile), then SIGKILL to all of them, a few rounds until `list()` is empty. Returns how many
 * processes got SIGKILL.
 */
export function killFrozen(list: () => number[], signal: (pid: number, sig: 'SIGSTOP' | 'SIGKILL') => void): number {
  let killed = 0;
  for (let round = 0; round < 5; round++) {
    const stopped = new Set<number>();
    for (let pass = 0; pass < 50; pass++) {
      const fresh = list().filter(p => !stopped.has(p));
      if (!fresh.length) break;
      for (const p of fresh) { signal(p, 'SIGSTOP'); stopped.add(p); }
    }
    if (!stopped.size) break;
    for (const p of stopped) signal(p, 'SIGKILL');
    killed += stopped.size;
  }
  return killed;
}

const signalPid = (pid: number, sig: NodeJS.Signals | 0): boolean => {
  try { process.kill(pid, sig); return true; } catch { return false; }
};

/** Alive and not a zombie (Linux; elsewhere: alive). */
function running(pid: number): boolean {
  if (!signalPid(pid, 0)) return false;
  if (process.platform !== 'linux') return true;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
    const state = stat.charAt(stat.lastIndexOf(')') + 2);
    return state !== 'Z' && state !== 'X';
  } catch { return false; }
}

/** When `pid` started, in the clock ticks since boot of /proc/<pid>/stat (Linux); 0 when unknown. */
export function startTimeOf(pid: number | undefined): number {
  if (pid === undefined || process.platform !== 'linux') return 0;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]) || 0;
  } catch { return 0; }
}

/** What belongs to `query` now (the table read once); `since`: see readProcessTable. */
export function treeOf(query: TreeQuery, since = 0): number[] {
  return selectTree(readProcessTable(fs, spawnSync, process.platform, PROC_TAG_VAR, since), query);
}

export interface EndTreeOptions {
  /** SIGTERM → SIGKILL delay. */
  readonly graceMs: number;
  /** When the tag's owner started (startTimeOf): nothing older carries its tag. */
  readonly since?: number;
  /** Polled with the tree during the grace period: true while something outside the table (the leader's exit event) is pending. */
  readonly pending?: () => boolean;
}

/**
 * Ends every process of `query` (POSIX): SIGTERM, up to `graceMs` for them to exit, then the
 * freeze-and-kill sweep. Resolves once nothing of it runs. Returns whether SIGKILL was needed.
 */
export async function endTree(query: TreeQuery, options: EndTreeOptions): Promise<boolean> {
  const first = treeOf(query, options.since);
  // The groups directly as well: where the table cannot be read (no /proc, no ps), they still end.
  const groupAlive = () => process.platform !== 'linux' && query.groups.some(g => signalPid(-g, 0));
  // Nothing left (a command that ended, with nothing detached): one read of the table was all.
  if (!first.length && !groupAlive() && !options.pending?.()) return false;
  for (const g of query.groups) signalPid(-g, 'SIGTERM');
  for (const pid of first) signalPid(pid, 'SIGTERM');
  const end = Date.now() + options.graceMs;
  while ((first.some(running) || groupAlive() || options.pending?.()) && Date.now() < end) await new Promise(r => setTimeout(r, 40));
  // What SIGTERM did not end, and whatever was started meanwhile (a process re-parented since, too).
  const killed = killFrozen(() => treeOf(query, options.since), (pid, sig) => signalPid(pid, sig));
  let groupKilled = false;
  for (const g of query.groups) if (groupAlive() && signalPid(-g, 'SIGKILL')) groupKilled = true;
  return killed > 0 || groupKilled;
}
