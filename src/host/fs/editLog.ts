// The one history of agents' edits (common/review/editHistory.ts) with both sides of each edit
// served to the diff editor from the shared in-memory provider: FsService's applied writes and
// ToolDiffs' tool-call diffs live here, and an edit the history forgets stops being served.
import * as vscode from 'vscode';
import { Edit, EditHistory, EditOrigin } from '../../common/review/editHistory';
import { REVIEW_LIMITS } from '../../common/review/reviewLog';
import { DiffContentProvider } from './diffContent';

/** Characters of edit texts kept per origin (both sides): the oldest edits of an origin are forgotten first. */
const MAX_CHARS = 64 * 1024 * 1024;
/** Applied writes kept (each keeps its Undo); tool diffs are bounded by their size only. */
const MAX_WRITES = 200;

export class EditLog {
  /** With the review's changes and decisions (ChangeTracker), under their own bounds (REVIEW_LIMITS). */
  readonly history = new EditHistory({ ...REVIEW_LIMITS, maxChars: MAX_CHARS, maxPerOrigin: { ...REVIEW_LIMITS.maxPerOrigin, write: MAX_WRITES } });

  constructor(private readonly content: DiffContentProvider) {
    this.history.onForget(e => {
      this.content.delete(EditLog.uri(e, 'before'));
      this.content.delete(EditLog.uri(e, 'after'));
    });
  }

  /** Adds an edit (see EditHistory.add) and serves its two sides. */
  add<D>(edit: { origin: EditOrigin; scope: string; path: string; before: string | null; after: string | null; data?: D }, key?: string): Edit<D> {
    const e = this.history.add(edit, key);
    this.content.set(EditLog.uri(e, 'before'), e.before ?? '');
    this.content.set(EditLog.uri(e, 'after'), e.after ?? '');
    return e;
  }

  static uri(e: Edit, side: 'before' | 'after'): vscode.Uri {
    return DiffContentProvider.uri(e.id, side, e.path);
  }
}
