// The processes of this machine that run from a folder: an agent started from the same global
// storage by another VS Code window, which this window cannot stop and whose files must not be
// deleted under it. Linux: /proc/<pid>/exe and /proc/<pid>/cmdline; macOS (and other POSIX
// systems): `ps -axww -o pid=,args=`; Windows: not scanned (nothing is found). No `vscode` import.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { isInside } from '../../common/registry/archive';

export interface ProcessFrom {
  readonly pid: number;
  /** Its command line, for the message. */
  readonly command: string;
}

/** Processes (other than this one) whose program, or a path on whose command line, is inside `dir`. */
export async function processesRunningFrom(dir: string): Promise<ProcessFrom[]> {
  if (process.platform === 'win32') return [];
  const roots = [dir];
  try { roots.push(await fs.promises.realpath(dir)); } catch { /* gone already */ }
  const inside = (p: string) => path.isAbsolute(p) && roots.some(r => isInside(r, p));
  return process.platform === 'linux' ? scanProc(inside) : scanPs(roots);
}

async function scanProc(inside: (p: string) => boolean): Promise<ProcessFrom[]> {
  let pids: string[];
  try {
    pids = (await fs.promises.readdir('/proc')).filter(n => /^\d+$/.test(n) && Number(n) !== process.pid);
  } catch {
    return [];
  }
  const found: ProcessFrom[] = [];
  await Promise.all(pids.map(async pid => {
    // Another user's process, or one that ended meanwhile: not readable, not ours to worry about.
    const exe = await fs.promises.readlink(`/proc/${pid}/exe`).catch(() => '');
    const argv = (await fs.promises.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0').filter(Boolean);
    if (inside(exe.replace(/ \(deleted\)$/, '')) || argv.some(inside)) found.push({ pid: Number(pid), command: argv.join(' ') || exe });
  }));
  return found.sort((a, b) => a.pid - b.pid);
}

function scanPs(roots: readonly string[]): Promise<ProcessFrom[]> {
  return new Promise(resolve => {
    execFile('ps', ['-axww', '-o', 'pid=,args='], { timeout: 5000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout) => {
      if (err) { resolve([]); return; }
      const found: ProcessFrom[] = [];
      for (const line of stdout.split('\n')) {
        const m = /^\s*(\d+)\s+(.*)$/.exec(line);
        if (!m || Number(m[1]) === process.pid) continue;
        // `args` joins the arguments with spaces: a path inside the folder is the folder and a separator.
        if (roots.some(r => m[2].includes(r + path.sep))) found.push({ pid: Number(m[1]), command: m[2] });
      }
      resolve(found);
    });
  });
}
