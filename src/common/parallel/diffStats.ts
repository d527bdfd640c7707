// What a run changed, from git's own output: `git diff --name-status -z --no-renames` and
// `git diff --numstat -z --no-renames` against the commit the run started from. Parsing only: git
// computes the diff (host/parallel/worktrees.ts runs it).
import type { RunFile } from './runSet';

/** `--name-status -z`: `M\0path\0A\0path\0…` → path → change. */
export function parseNameStatus(out: string): Map<string, RunFile['change']> {
  const fields = out.split('\0');
  const result = new Map<string, RunFile['change']>();
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const code = fields[i].trim()[0];
    const file = fields[i + 1];
    if (!code || !file) continue;
    result.set(file, code === 'A' ? 'added' : code === 'D' ? 'deleted' : 'modified');
  }
  return result;
}

/** `--numstat -z`: `added\tremoved\tpath\0` per file; a binary file has `-\t-`. */
export function parseNumstat(out: string): Map<string, { added?: number; removed?: number }> {
  const result = new Map<string, { added?: number; removed?: number }>();
  for (const record of out.split('\0')) {
    const m = /^(-|\d+)\t(-|\d+)\t(.+)$/s.exec(record);
    if (!m) continue;
    result.set(m[3], m[1] === '-' ? {} : { added: Number(m[1]), removed: Number(m[2]) });
  }
  return result;
}

/** The run's files, sorted by path: each with its change and line counts (none for a binary file). */
export function runFiles(nameStatus: string, numstat: string): RunFile[] {
  const counts = parseNumstat(numstat);
  return [...parseNameStatus(nameStatus)].map(([path, change]) => ({ path, change, ...counts.get(path) }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Lines added and removed over all the files (binary files count for none). */
export function totals(files: readonly RunFile[]): { files: number; added: number; removed: number } {
  return files.reduce((t, f) => ({ files: t.files + 1, added: t.added + (f.added ?? 0), removed: t.removed + (f.removed ?? 0) }), { files: 0, added: 0, removed: 0 });
}
