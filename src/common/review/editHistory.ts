// One history of the edits agents made, in the order they were learnt: writes the client applied for
// an agent (fs/write_text_file) and the diffs tool calls reported (in-process edits). The chat's
// "open diff" and the applied writes' Undo read their texts here; each origin is bounded on its own
// (a flood of tool diffs, which cost an agent nothing to send, never pushes out an applied write) by
// the size of its texts (the oldest are forgotten first, the newest always stays) and by number.
// The review (host/review/changeTracker.ts) keeps its undecided changes here too, one per turn and
// file (`review`), and the user's decisions on them (`decision`: Keep, Undo), each origin bounded on
// its own: a flood of tool diffs never pushes out what an Undo needs (common/review/reviewLog.ts).
// Pure: the host serves the texts to the diff editor (host/editLog.ts).

/**
 * How the edit was learnt: a write the client applied, a diff a tool call reported, a turn's
 * undecided change of a file as the review lists it, or the user's decision (Keep, Undo) on one.
 */
export type EditOrigin = 'write' | 'toolDiff' | 'review' | 'decision';

export interface Edit<D = unknown> {
  /** Stable for the edit's life, and across updates of the same key (an open diff follows them). */
  readonly id: string;
  readonly origin: EditOrigin;
  /** The conversation it belongs to (a tab id, a session id). */
  readonly scope: string;
  readonly path: string;
  /** The text before the edit; null when the edit created the file (or the diff claims so). */
  readonly before: string | null;
  /** The text after; null when the edit deleted the file (a review's change). */
  readonly after: string | null;
  /** Its place in the history (later edits, and later updates of a key, have larger ones). */
  readonly seq: number;
  /** What the edit's owner keeps with it (a write's encoding, who reviewed it). */
  readonly data?: D;
}

export interface EditHistoryLimits {
  /** Characters of the texts kept per origin (both sides, plus ENTRY_OVERHEAD per edit). */
  readonly maxChars: number;
  /** The same, for origins bounded otherwise (Infinity: the review's undecided changes, which its owner bounds). */
  readonly maxCharsPerOrigin?: Partial<Record<EditOrigin, number>>;
  /** At most this many edits of an origin. */
  readonly maxPerOrigin?: Partial<Record<EditOrigin, number>>;
}

/** What an edit costs besides its texts, so many empty edits are bounded too. */
export const ENTRY_OVERHEAD = 256;
const cost = (e: Edit) => ENTRY_OVERHEAD + (e.before?.length ?? 0) + (e.after?.length ?? 0);

export class EditHistory {
  /** Oldest first; keyed edits under their key, the others under their id. */
  private readonly edits = new Map<string, Edit>();
  /** The same, per origin (its eviction order: the oldest of an origin is its first). */
  private readonly fifo: Record<EditOrigin, Map<string, Edit>> = { write: new Map(), toolDiff: new Map(), review: new Map(), decision: new Map() };
  /** The key of each edit, by id. */
  private readonly keys = new Map<string, string>();
  /** What the kept edits of each origin cost (see EditHistoryLimits.maxChars). */
  private readonly chars: Record<EditOrigin, number> = { write: 0, toolDiff: 0, review: 0, decision: 0 };
  private nextId = 1;
  private nextSeq = 1;
  private readonly forgetListeners: ((e: Edit) => void)[] = [];

  constructor(private readonly limits: EditHistoryLimits) {}

  /** Called with each edit the history forgets (evicted, replaced by a later update of its key, or cleared). */
  onForget(listener: (e: Edit) => void): void {
    this.forgetListeners.push(listener);
  }

  /**
   * Adds an edit; with `key` (a tool call's diff: tab, item and index), it replaces the edit under
   * that key, keeps its id and becomes the newest.
   */
  add<D>(edit: { origin: EditOrigin; scope: string; path: string; before: string | null; after: string | null; data?: D }, key?: string): Edit<D> {
    const previous = key !== undefined ? this.edits.get(key) : undefined;
    const id = previous?.id ?? `e${this.nextId++}`;
    if (previous) this.remove(key!, previous, false);
    const entry: Edit<D> = { id, origin: edit.origin, scope: edit.scope, path: edit.path, before: edit.before, after: edit.after, seq: this.nextSeq++, ...(edit.data !== undefined ? { data: edit.data } : {}) };
    this.edits.set(key ?? id, entry);
    this.fifo[entry.origin].set(key ?? id, entry);
    this.keys.set(id, key ?? id);
    this.chars[entry.origin] += cost(entry);
    this.evict(entry);
    return entry;
  }

  /** The edit under a key given to add. */
  get(key: string): Edit | undefined {
    return this.edits.get(key);
  }

  byId(id: string): Edit | undefined {
    const key = this.keys.get(id);
    return key === undefined ? undefined : this.edits.get(key);
  }

  /** The edits kept, oldest first, optionally of one origin / scope / path. */
  list(filter: { origin?: EditOrigin; scope?: string; path?: string } = {}): Edit[] {
    return [...(filter.origin ? this.fifo[filter.origin] : this.edits).values()].filter(e => matches(e, filter));
  }

  get size(): number {
    return this.edits.size;
  }

  /** The place of the newest edit (0: none yet): an edit added later has a larger one. */
  get lastSeq(): number {
    return this.nextSeq - 1;
  }

  /** Removes the edit under a key given to add (an entry its owner no longer needs), telling the listeners. */
  delete(key: string): void {
    const e = this.edits.get(key);
    if (e) this.remove(key, e, true);
  }

  /** Characters the kept edits of all origins cost (see EditHistoryLimits.maxChars). */
  get keptChars(): number {
    return Object.values(this.chars).reduce((a, b) => a + b, 0);
  }

  /** Forgets the edits of an origin / scope / path (all of them without a filter), each told once. */
  forget(filter: { origin?: EditOrigin; scope?: string; path?: string } = {}): void {
    for (const [key, e] of [...this.edits]) if (matches(e, filter)) this.remove(key, e, true);
  }

  /**
   * Forgets the oldest edits of the newest's origin while it is over its bounds; the newest always
   * stays. Under the bounds it costs nothing, and over them one step per edit forgotten (no copy of
   * the history: a long session's adds stay O(1) each).
   */
  private evict(newest: Edit): void {
    const fifo = this.fifo[newest.origin];
    const maxCount = this.limits.maxPerOrigin?.[newest.origin] ?? Infinity;
    const maxChars = this.limits.maxCharsPerOrigin?.[newest.origin] ?? this.limits.maxChars;
    const over = () => fifo.size > 1 && (fifo.size > maxCount || this.chars[newest.origin] > maxChars);
    // Deleting the entry a Map iteration is at is safe; newest is the last of its origin.
    for (const [key, e] of fifo) {
      if (!over()) break;
      if (e !== newest) this.remove(key, e, true);
    }
  }

  /** `forget`: tell the listeners (false when a later update of the same key, same id, replaces it). */
  private remove(key: string, e: Edit, forget: boolean): void {
    this.edits.delete(key);
    this.fifo[e.origin].delete(key);
    this.keys.delete(e.id);
    this.chars[e.origin] -= cost(e);
    if (forget) for (const l of this.forgetListeners) l(e);
  }
}

function matches(e: Edit, filter: { origin?: EditOrigin; scope?: string; path?: string }): boolean {
  return (filter.origin === undefined || e.origin === filter.origin) && (filter.scope === undefined || e.scope === filter.scope) && (filter.path === undefined || e.path === filter.path);
}
