// Which processes belong to a command or an agent, whatever they did to detach. Every process
// Switchboard spawns carries a tag in its environment (SWITCHBOARD_PROC_TAG=<host>.<n>), which
// fork, exec, setsid and a daemon's double fork all keep; from the tagged ones the selection
// grows to their children (ppid), their process groups and the sessions they made, so a child
// that cleared its environment is still found while it is in the tree. What is never selected: the
// spared processes (the extension host, the watchdog) and their ancestors, and their own groups
// and sessions (a command that keeps the host's session must not take the host's session along).
//
// Self-contained on purpose (no imports, no module-level names): the watchdog runs this very
// function from its source text (processGuard.ts).

/** One process of a process table (Linux /proc, or `ps` elsewhere). */
export interface ProcEntry {
  readonly pid: number;
  readonly ppid: number;
  readonly pgrp: number;
  /** 0 when the platform's table has no session ids. */
  readonly session: number;
  /** The one-letter state (Z: zombie). */
  readonly state: string;
  /** The value of SWITCHBOARD_PROC_TAG in its environment, when readable. */
  readonly tag?: string;
}

export interface TreeQuery {
  /** Tags that belong; one ending in "." matches every tag it starts (all of one extension host). */
  readonly tags: readonly string[];
  /** Process groups that belong (the groups Switchboard made its commands and agents lead). */
  readonly groups: readonly number[];
  /** Never selected, nor their ancestors, nor their groups and sessions. */
  readonly spare: readonly number[];
  /** Groups and sessions never followed (a dead host's, known to the watchdog). */
  readonly spareGroups?: readonly number[];
  readonly spareSessions?: readonly number[];
}

/** The pids (zombies left out) of every process that belongs to the query, in table order. */
export function selectTree(table: readonly ProcEntry[], query: TreeQuery): number[] {
  const byPid = new Map<number, ProcEntry>();
  for (const p of table) byPid.set(p.pid, p);
  const spared = new Set<number>([0, 1]);
  const badGroups = new Set<number>([0, 1, ...(query.spareGroups ?? [])]);
  const badSessions = new Set<number>([0, 1, ...(query.spareSessions ?? [])]);
  for (const pid of query.spare) {
    // The spared process and its ancestors (a loop in a racy table ends at a pid seen before).
    for (let p = byPid.get(pid); p && !spared.has(p.pid); p = byPid.get(p.ppid)) {
      spared.add(p.pid);
      badGroups.add(p.pgrp);
      badSessions.add(p.session);
    }
    spared.add(pid);
  }
  const tagged = (tag: string | undefined) => tag !== undefined && query.tags.some(t => (t.endsWith('.') ? tag.startsWith(t) : tag === t));
  const live = table.filter(p => p.state !== 'Z' && p.state !== 'X' && p.state !== 'x' && !spared.has(p.pid));
  const chosen = new Set<number>();
  const groups = new Set<number>(query.groups.filter(g => !badGroups.has(g)));
  const sessions = new Set<number>();
  const take = (p: ProcEntry) => {
    chosen.add(p.pid);
    if (!badGroups.has(p.pgrp)) groups.add(p.pgrp);
    if (!badSessions.has(p.session)) sessions.add(p.session);
  };
  for (const p of live) if (tagged(p.tag)) take(p);
  // Grows until nothing more joins: children, group members, session members of what was taken.
  for (let grew = true; grew;) {
    grew = false;
    for (const p of live) {
      if (chosen.has(p.pid)) continue;
      if (chosen.has(p.ppid) || groups.has(p.pgrp) || sessions.has(p.session)) { take(p); grew = true; }
    }
  }
  return live.filter(p => chosen.has(p.pid)).map(p => p.pid);
}
