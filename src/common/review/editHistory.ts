// One history of the edits agents made, in the order they were learnt: writes the client applied for
// an agent (fs/write_text_file) and the diffs tool calls reported (in-process edits). The chat's
// "open diff" and the applied writes' Undo read their texts here; it is bounded by the size of the
// texts (the oldest are forgotten first, the newest always stays) and, per origin, by their number.
// Pure: the host serves the texts to the diff editor (host/editLog.ts).

/** How the edit was learnt: a write the client applied, or a diff a tool call reported. */
export type EditOrigin = 'write' | 'toolDiff';

export interface Edit<D = unknown> {
  /** Stable for the edit's life, and across updates of the same key (an open diff follows them). */
  readonly id: string;
  readonly origin: EditOrigin;
  /** The conversation it belongs to (a tab id, a session id). */
  readonly scope: string;
  readonly path: string;
  /** The text before the edit; null when the edit created the file (or the diff claims so). */
  readonly before: string | null;
  readonly after: string;
  /** Its place in the history (later edits, and later updates of a key, have larger ones). */
  readonly seq: number;
  /** What the edit's owner keeps with it (a write's encoding, who reviewed it). */
  readonly data?: D;
}

export interface EditHistoryLimits {
  /** Characters of the texts kept in all (both sides, plus ENTRY_OVERHEAD per edit). */
  readonly maxChars: number;
  /** At most this many edits of an origin. */
  readonly maxPerOrigin?: Partial<Record<EditOrigin, number>>;
}

/** What an edit costs besides its texts, so many empty edits are bounded too. */
export const ENTRY_OVERHEAD = 256;
const cost = (e: Edit) => ENTRY_OVERHEAD + (e.before?.length ?? 0) + e.after.length;

export class EditHistory {
  /** Oldest first; keyed edits under their key, the others under their id. */
  private readonly edits = new Map<string, Edit>();
  private chars = 0;
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
  add<D>(edit: { origin: EditOrigin; scope: string; path: string; before: string | null; after: string; data?: D }, key?: string): Edit<D> {
    const previous = key !== undefined ? this.edits.get(key) : undefined;
    const id = previous?.id ?? `e${this.nextId++}`;
    if (previous) this.remove(key!, previous, false);
    const entry: Edit<D> = { id, origin: edit.origin, scope: edit.scope, path: edit.path, before: edit.before, after: edit.after, seq: this.nextSeq++, ...(edit.data !== undefined ? { data: edit.data } : {}) };
    this.edits.set(key ?? id, entry);
    this.chars += cost(entry);
    this.evict(entry);
    return entry;
  }

  /** The edit under a key given to add. */
  get(key: string): Edit | undefined {
    return this.edits.get(key);
  }

  byId(id: string): Edit | undefined {
    for (const e of this.edits.values()) if (e.id === id) return e;
    return undefined;
  }

  /** The edits kept, oldest first, optionally of one origin / scope / path. */
  list(filter: { origin?: EditOrigin; scope?: string; path?: string } = {}): Edit[] {
    return [...this.edits.values()].filter(e => matches(e, filter));
  }

  get size(): number {
    return this.edits.size;
  }

  /** Characters the kept edits cost (see EditHistoryLimits.maxChars). */
  get keptChars(): number {
    return this.chars;
  }

  /** Forgets the edits of an origin / scope / path (all of them without a filter), each told once. */
  forget(filter: { origin?: EditOrigin; scope?: string; path?: string } = {}): void {
    for (const [key, e] of [...this.edits]) if (matches(e, filter)) this.remove(key, e, true);
  }

  private evict(newest: Edit): void {
    const max = this.limits.maxPerOrigin?.[newest.origin];
    if (max !== undefined) {
      let count = this.list({ origin: newest.origin }).length;
      for (const [key, e] of [...this.edits]) {
        if (count <= max) break;
        if (e.origin !== newest.origin || e === newest) continue;
        this.remove(key, e, true);
        count--;
      }
    }
    // Bounded by the size of the texts, not their number; the newest edit always stays.
    for (const [key, e] of [...this.edits]) {
      if (this.chars <= this.limits.maxChars || this.edits.size <= 1) break;
      if (e !== newest) this.remove(key, e, true);
    }
  }

  /** `forget`: tell the listeners (false when a later update of the same key, same id, replaces it). */
  private remove(key: string, e: Edit, forget: boolean): void {
    this.edits.delete(key);
    this.chars -= cost(e);
    if (forget) for (const l of this.forgetListeners) l(e);
  }
}

function matches(e: Edit, filter: { origin?: EditOrigin; scope?: string; path?: string }): boolean {
  return (filter.origin === undefined || e.origin === filter.origin) && (filter.scope === undefined || e.scope === filter.scope) && (filter.path === undefined || e.path === filter.path);
}
