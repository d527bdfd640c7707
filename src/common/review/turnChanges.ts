// The files an agent changed during one turn, each against its baseline (its text just before the
// agent's first change in the turn; null when the file did not exist). Pure bookkeeping: the host
// reads and writes files and feeds what it saw; this decides what Keep and Undo mean. It keeps
// nothing of its own: each file's change is the turn's `review` edit in the one history of edits
// (reviewLog.ts), read from and written to there.
import { merge3 } from '../fs/merge';
import { EditHistory } from './editHistory';
import { computeHunks, Hunk, keepHunk, undoHunk } from './hunks';
import { FileChange, fileChangeOf, putChange, REVIEW_LIMITS, reviewKey, turnEdits } from './reviewLog';

export type { FileChange } from './reviewLog';

export interface FileChangeView {
  readonly path: string;
  readonly kind: 'created' | 'deleted' | 'modified';
  /** Binary (or not valid in its encoding): no text diff, no hunks. */
  readonly binary?: boolean;
  /** The child agent (helper) that changed it. */
  readonly by?: string;
  readonly added: number;
  readonly removed: number;
  readonly hunks: readonly Pick<Hunk, 'id' | 'curLine' | 'curLineCount' | 'added' | 'removed'>[];
}

export class TurnChanges {
  /** `history`: the one history of edits its changes live in (one of its own when absent). */
  constructor(readonly turnId: string, saved?: readonly FileChange[], readonly history = new EditHistory(REVIEW_LIMITS)) {
    for (const f of saved ?? []) this.set(f);
  }

  /** A file's change, as the history holds it. */
  private file(path: string): FileChange | undefined {
    const e = this.history.get(reviewKey(this.turnId, path));
    return e && fileChangeOf(e);
  }

  /** Applied writes (their ids in the history) that made the file's change: their Undo and the file's are one. */
  addWrites(path: string, writes: readonly string[]): void {
    const known = this.file(path);
    if (known && writes.length) putChange(this.history, this.turnId, known, writes);
  }

  /**
   * The agent changed `path` from `before` to `after`. The first report of a file sets its
   * baseline; later ones only move its current text.
   */
  record(path: string, before: string | null, after: string | null, how: Pick<FileChange, 'binary' | 'form'> = {}): void {
    const known = this.file(path);
    // "Created" may have been a guess (a file watcher saw a rename over the file): a later report
    // that the file held text before this change, other than what the list says it holds, wins.
    const corrected = known && known.baseline === null && before !== null && before !== known.current;
    const kept = known ? { binary: known.binary, form: known.form } : how;
    this.set({ path, baseline: known && !corrected ? known.baseline : before, current: after, ...clean(kept), ...(known?.by ? { by: known.by } : {}) });
  }

  /** The change of `path` was made by child agent `by` (the first one named stays). */
  attribute(path: string, by: string): void {
    const known = this.file(path);
    if (known && !known.by) this.set({ ...known, by });
  }

  /**
   * Someone other than the agent (the user, a formatter, git) changed the file since. Their edit is
   * carried into the baseline too, where it does not overlap the agent's changes, so it is not
   * listed as the agent's and survives Undo, even Undo of the whole file.
   */
  updateCurrent(path: string, current: string | null): void {
    const known = this.file(path);
    if (!known || known.current === current) return;
    let baseline = known.baseline;
    if (!known.binary && baseline !== null && known.current !== null && current !== null) {
      const rebased = merge3(known.current, current, baseline);
      if (rebased.conflicts.length === 0) baseline = rebased.text;
    }
    this.set({ ...known, baseline, current });
  }

  /**
   * What the file held before the turn, learnt late and better (the agent's own account of the file
   * before its edit, after the list took it from a diff placed in a disk that had moved on).
   */
  rebase(path: string, baseline: string | null): void {
    const known = this.file(path);
    if (known && known.baseline !== baseline) this.set({ ...known, baseline });
  }

  /** Both sides anew: a change under it in the file's stack was undone (see stack.ts). */
  restack(path: string, baseline: string | null, current: string | null): void {
    const known = this.file(path);
    if (known) this.set({ ...known, baseline, current });
  }

  get(path: string): FileChange | undefined {
    return this.file(path);
  }

  /** Files with undecided changes, in the order they were first changed. */
  pending(): FileChange[] {
    return turnEdits(this.history, this.turnId).map(fileChangeOf);
  }

  get isEmpty(): boolean {
    return this.pending().length === 0;
  }

  view(): FileChangeView[] {
    return this.pending().map(f => {
      const hunks = this.hunks(f.path);
      return {
        path: f.path,
        kind: f.baseline === null ? 'created' : f.current === null ? 'deleted' : 'modified',
        ...(f.binary ? { binary: true } : {}),
        ...(f.by ? { by: f.by } : {}),
        added: hunks.reduce((n, h) => n + h.added, 0),
        removed: hunks.reduce((n, h) => n + h.removed, 0),
        hunks: hunks.map(h => ({ id: h.id, curLine: h.curLine, curLineCount: h.curLineCount, added: h.added, removed: h.removed })),
      };
    });
  }

  /** Hunks of a file; computed once per (baseline, current) pair, however often the views ask. */
  hunks(path: string): Hunk[] {
    const f = this.file(path);
    if (!f) return [];
    if (f.binary) return [];
    const cached = this.hunkCache.get(path);
    if (cached && cached.of === f) return cached.hunks;
    const hunks = computeHunks(f.baseline ?? '', f.current ?? '');
    this.hunkCache.set(path, { of: f, hunks });
    return hunks;
  }

  private readonly hunkCache = new Map<string, { of: FileChange; hunks: Hunk[] }>();

  /** Keeps one hunk (or the whole file): nothing on disk changes. */
  keep(path: string, hunkId?: string): void {
    const f = this.file(path);
    if (!f) return;
    if (hunkId === undefined || f.binary) { this.forget(path); return; }
    const hunk = this.hunks(path).find(h => h.id === hunkId);
    if (!hunk) return;
    const baseline = keepHunk(f.baseline ?? '', hunk);
    this.set({ ...f, baseline: f.baseline === null && f.current !== null && baseline === f.current ? f.current : baseline });
  }

  /**
   * What undoing one hunk (or the whole file) makes of it, changing nothing yet (the host writes the
   * file first, then `undo`es: an undo that cannot be written leaves the list as it was): the
   * file's text, or null to delete it (a created file whose content was all undone), and whether the
   * file then leaves the list. Undefined: nothing to do.
   */
  undoPlan(path: string, hunkId?: string): { text: string | null; leaves: boolean } | undefined {
    const f = this.file(path);
    if (!f) return undefined;
    if (hunkId === undefined || f.binary) return { text: f.baseline, leaves: true };
    const hunk = this.hunks(path).find(h => h.id === hunkId);
    if (!hunk) return undefined;
    const text = undoHunk(f.current ?? '', hunk);
    const target = f.baseline === null && text === '' ? null : text;
    return { text: target, leaves: target === f.baseline };
  }

  /** Undoes one hunk (or the whole file) in the list; returns what the file must become (see undoPlan). */
  undo(path: string, hunkId?: string): { text: string | null } | undefined {
    const plan = this.undoPlan(path, hunkId);
    if (!plan) return undefined;
    const f = this.file(path)!;
    if (hunkId === undefined || f.binary) this.forget(path);
    else this.set({ ...f, current: plan.text });
    return { text: plan.text };
  }

  /** Stores the file, or forgets it once nothing is left to decide. */
  private set(f: FileChange): void {
    if (f.baseline === f.current) this.forget(f.path);
    else putChange(this.history, this.turnId, f);
  }

  private forget(path: string): void {
    this.hunkCache.delete(path);
    this.history.delete(reviewKey(this.turnId, path));
  }
}

function clean(how: Pick<FileChange, 'binary' | 'form'>): Pick<FileChange, 'binary' | 'form'> {
  return { ...(how.binary ? { binary: true } : {}), ...(how.form && (how.form.encoding !== 'utf8' || how.form.bom) ? { form: how.form } : {}) };
}
