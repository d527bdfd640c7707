// Reading /proc/<pid>/stat (Linux): whether a process group still has live members. A process that
// has exited but was not yet reaped (a zombie, state Z; in containers whose init does not reap,
// forever) no longer runs and is not counted.

export interface ProcStat {
  readonly pid: number;
  readonly state: string;
  readonly ppid: number;
  readonly pgrp: number;
  readonly session: number;
}

/** Parses one stat line; the command name may contain spaces and parentheses. */
export function parseProcStat(line: string): ProcStat | undefined {
  const close = line.lastIndexOf(')');
  if (close < 0) return undefined;
  const pid = Number(line.slice(0, line.indexOf(' ')));
  const f = line.slice(close + 2).split(' ');
  if (f.length < 4 || !Number.isFinite(pid)) return undefined;
  return { pid, state: f[0], ppid: Number(f[1]), pgrp: Number(f[2]), session: Number(f[3]) };
}

export const isRunningState = (state: string) => state !== 'Z' && state !== 'X' && state !== 'x';
