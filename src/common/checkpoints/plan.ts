// Checkpoints (docs/decisions/0027): the workspace's files before each turn, recorded as git trees in
// a shadow repository outside the user's. This is the pure part: what a restore changes (from git's
// raw diff of the checkpoint's tree against the workspace's tree now), which files one
// conversation's turns changed when several agents work at once, and which checkpoints are pruned.

/** One path that differs between two trees (`git diff-tree -r -z --raw --no-renames old new`). */
export interface TreeChange {
  readonly path: string;
  /** Absent on this side: null. */
  readonly oldMode: string | null;
  readonly oldSha: string | null;
  readonly newMode: string | null;
  readonly newSha: string | null;
}

const ZERO = /^0+$/;
const GITLINK = '160000';

/** Parses `git diff-tree -r -z --raw --no-renames` output; entries it cannot read are skipped. */
export function parseRawDiff(out: string): TreeChange[] {
  const parts = out.split('\0');
  const changes: TreeChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const m = /^:(\d{6}) (\d{6}) ([0-9a-f]+) ([0-9a-f]+) [A-Z]\d*$/.exec(parts[i].trim());
    const path = parts[i + 1];
    if (!m || !path) continue;
    const [, oldMode, newMode, oldSha, newSha] = m;
    changes.push({
      path,
      oldMode: ZERO.test(oldMode) ? null : oldMode, oldSha: ZERO.test(oldMode) ? null : oldSha,
      newMode: ZERO.test(newMode) ? null : newMode, newSha: ZERO.test(newMode) ? null : newSha,
    });
  }
  return changes;
}

/** What a restore does to one file (paths relative to the folder, `/`-separated). */
export type FileOp =
  | { readonly op: 'write'; readonly path: string; readonly sha: string; readonly mode: string; readonly existsNow: boolean }
  | { readonly op: 'delete'; readonly path: string };

/**
 * The file operations that bring the workspace back to the checkpoint: `changes` is the diff from
 * the checkpoint's tree (old) to the tree now (new). A file the checkpoint has is written back with
 * its bytes and mode; a file it lacks (created since) is deleted. Nested repositories (gitlinks)
 * are never touched. `scope`: only these paths (one conversation's changes), when given.
 */
export function restorePlan(changes: readonly TreeChange[], scope?: ReadonlySet<string>): FileOp[] {
  const ops: FileOp[] = [];
  for (const c of changes) {
    if (scope && !scope.has(c.path)) continue;
    if (c.oldMode === GITLINK || c.newMode === GITLINK) continue;
    if (c.oldSha && c.oldMode) ops.push({ op: 'write', path: c.path, sha: c.oldSha, mode: c.oldMode, existsNow: c.newSha !== null });
    else ops.push({ op: 'delete', path: c.path });
  }
  return ops.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The folders of deleted files, deepest first: a restore removes those its deletions left empty (git
 * keeps no folders, so a folder the checkpoint has no file in is taken for one created since).
 */
export function foldersToRemove(deleted: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const p of deleted) {
    for (let i = p.lastIndexOf('/'); i > 0; i = p.lastIndexOf('/', i - 1)) folders.add(p.slice(0, i));
  }
  // Deepest first, so a parent is tried after its children.
  return [...folders].sort((a, b) => b.split('/').length - a.split('/').length || (a < b ? -1 : 1));
}

// ---- several conversations ------------------------------------------------------------------------

/** A turn as the checkpoints know it: `start` / `end` are positions in one sequence of events. */
export interface TurnSpan {
  readonly conversation: string;
  readonly start: number;
  /** Still running: undefined. */
  readonly end?: number;
  /** The paths its turn changed (before vs after it); for a turn still running, before vs now. */
  readonly changed: readonly string[];
}

export interface RestoreScope {
  /** Only these paths may change; undefined: everything that differs from the checkpoint. */
  readonly paths?: ReadonlySet<string>;
  /** Path → the other conversations whose turns changed it since the checkpoint. */
  readonly others: ReadonlyMap<string, readonly string[]>;
}

/**
 * What restoring `conversation`'s turn that started at `from` may touch. When no other conversation
 * ran a turn since (or during) it: every file that differs from the checkpoint (the user's own
 * edits since included; the confirmation shows them). Otherwise only the files this conversation's
 * turns changed since, each with the other conversations that changed it too.
 */
export function restoreScope(turns: readonly TurnSpan[], conversation: string, from: number): RestoreScope {
  const since = (t: TurnSpan) => t.end === undefined || t.end > from;
  const others = turns.filter(t => t.conversation !== conversation && since(t));
  if (!others.length) return { others: new Map() };
  const paths = new Set(turns.filter(t => t.conversation === conversation && t.start >= from).flatMap(t => t.changed));
  const byPath = new Map<string, string[]>();
  for (const t of others) {
    for (const p of t.changed) {
      if (!paths.has(p)) continue;
      const list = byPath.get(p) ?? [];
      if (!list.includes(t.conversation)) list.push(t.conversation);
      byPath.set(p, list);
    }
  }
  return { paths, others: byPath };
}

// ---- pruning --------------------------------------------------------------------------------------

export interface PrunePolicy {
  /** Checkpoints of a conversation closed longer ago than this are dropped (ms); 0: never by age. */
  readonly maxAgeMs: number;
  /** Above this much storage, closed conversations' checkpoints go, oldest closed first (bytes); 0: no cap. */
  readonly maxBytes: number;
}

export interface ConversationCheckpoints {
  readonly key: string;
  /** Closed at (ms since epoch); open conversations are never pruned. */
  readonly closedAt?: number;
  readonly checkpoints: number;
}

/**
 * The conversations whose checkpoints are dropped: closed ones older than the age limit, then,
 * while the storage is above its cap, the oldest closed ones (each checkpoint counted as an equal
 * share of the storage used: trees share their unchanged files, so this is an estimate, checked
 * again after the next prune).
 */
export function toPrune(conversations: readonly ConversationCheckpoints[], now: number, policy: PrunePolicy, usedBytes: number): string[] {
  const closed = conversations.filter(c => c.closedAt !== undefined).sort((a, b) => a.closedAt! - b.closedAt!);
  const drop = new Set(policy.maxAgeMs > 0 ? closed.filter(c => now - c.closedAt! > policy.maxAgeMs).map(c => c.key) : []);
  const total = conversations.reduce((n, c) => n + c.checkpoints, 0);
  if (policy.maxBytes > 0 && usedBytes > policy.maxBytes && total > 0) {
    const share = usedBytes / total;
    let estimate = usedBytes - conversations.filter(c => drop.has(c.key)).reduce((n, c) => n + c.checkpoints * share, 0);
    for (const c of closed) {
      if (estimate <= policy.maxBytes) break;
      if (drop.has(c.key)) continue;
      drop.add(c.key);
      estimate -= c.checkpoints * share;
    }
  }
  return [...drop];
}
