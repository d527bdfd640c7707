// The files an agent changed during one turn, each against its baseline (its text just before the
// agent's first change in the turn; null when the file did not exist). Pure bookkeeping: the host
// reads and writes files and feeds what it saw; this decides what Keep and Undo mean.
import type { TextForm } from '../fs/textForm';
import { merge3 } from '../fs/merge';
import { computeHunks, Hunk, keepHunk, undoHunk } from './hunks';

export interface FileChange {
  readonly path: string;
  /** null: the file did not exist before the turn. */
  readonly baseline: string | null;
  /** null: the agent deleted the file. */
  readonly current: string | null;
  /**
   * The file is binary (or not valid in its encoding) before or after: `baseline` and `current`
   * hold its bytes in base64, never decoded text; it is kept or undone whole.
   */
  readonly binary?: boolean;
  /** How the text is stored on disk (VS Code's encoding and the BOM); absent: UTF-8 without BOM. */
  readonly form?: TextForm;
  /** The child agent (helper) that changed it, by its title; absent: the conversation's agent. */
  readonly by?: string;
}

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
  private readonly files = new Map<string, FileChange>();

  constructor(readonly turnId: string, saved?: readonly FileChange[]) {
    for (const f of saved ?? []) this.files.set(f.path, f);
  }

  /**
   * The agent changed `path` from `before` to `after`. The first report of a file sets its
   * baseline; later ones only move its current text.
   */
  record(path: string, before: string | null, after: string | null, how: Pick<FileChange, 'binary' | 'form'> = {}): void {
    const known = this.files.get(path);
    // "Created" may have been a guess (a file watcher saw a rename over the file): a later report
    // that the file held text before this change, other than what the list says it holds, wins.
    const corrected = known && known.baseline === null && before !== null && before !== known.current;
    const kept = known ? { binary: known.binary, form: known.form } : how;
    this.set({ path, baseline: known && !corrected ? known.baseline : before, current: after, ...clean(kept), ...(known?.by ? { by: known.by } : {}) });
  }

  /** The change of `path` was made by child agent `by` (the first one named stays). */
  attribute(path: string, by: string): void {
    const known = this.files.get(path);
    if (known && !known.by) this.files.set(path, { ...known, by });
  }

  /**
   * Someone other than the agent (the user, a formatter, git) changed the file since. Their edit is
   * carried into the baseline too, where it does not overlap the agent's changes, so it is not
   * listed as the agent's and survives Undo, even Undo of the whole file.
   */
  updateCurrent(path: string, current: string | null): void {
    const known = this.files.get(path);
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
    const known = this.files.get(path);
    if (known && known.baseline !== baseline) this.set({ ...known, baseline });
  }

  get(path: string): FileChange | undefined {
    return this.files.get(path);
  }

  /** Files with undecided changes, in the order they were first changed. */
  pending(): FileChange[] {
    return [...this.files.values()];
  }

  get isEmpty(): boolean {
    return this.files.size === 0;
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
    const f = this.files.get(path);
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
    const f = this.files.get(path);
    if (!f) return;
    if (hunkId === undefined || f.binary) { this.files.delete(path); this.hunkCache.delete(path); return; }
    const hunk = this.hunks(path).find(h => h.id === hunkId);
    if (!hunk) return;
    const baseline = keepHunk(f.baseline ?? '', hunk);
    this.set({ ...f, baseline: f.baseline === null && f.current !== null && baseline === f.current ? f.current : baseline });
  }

  /**
   * Undoes one hunk (or the whole file). Returns what the file must become: its text, or null to
   * delete it (a created file whose content was all undone). Undefined: nothing to do.
   */
  undo(path: string, hunkId?: string): { text: string | null } | undefined {
    const f = this.files.get(path);
    if (!f) return undefined;
    if (hunkId === undefined || f.binary) {
      this.files.delete(path);
      this.hunkCache.delete(path);
      return { text: f.baseline };
    }
    const hunk = this.hunks(path).find(h => h.id === hunkId);
    if (!hunk) return undefined;
    const text = undoHunk(f.current ?? '', hunk);
    const target = f.baseline === null && text === '' ? null : text;
    this.set({ ...f, current: target });
    return { text: target };
  }

  /** Stores the file, or forgets it once nothing is left to decide. */
  private set(f: FileChange): void {
    this.hunkCache.delete(f.path);
    if (f.baseline === f.current) this.files.delete(f.path);
    else this.files.set(f.path, f);
  }
}

function clean(how: Pick<FileChange, 'binary' | 'form'>): Pick<FileChange, 'binary' | 'form'> {
  return { ...(how.binary ? { binary: true } : {}), ...(how.form && (how.form.encoding !== 'utf8' || how.form.bom) ? { form: how.form } : {}) };
}
