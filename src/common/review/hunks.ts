// Review of an agent's change to one file, hunk by hunk. A change is a pair of texts: the baseline
// (the file just before the agent's first change in the turn) and the current text. Keeping a hunk
// moves the baseline forward over it; undoing a hunk moves the current text back over it. Either
// way the other hunks are untouched, so decisions can be made in any order.
import { diffLines } from 'diff';

export interface Hunk {
  /**
   * `b<start>-<end>` of the baseline range it replaces: stays the same when the user edits elsewhere
   * in the file (the baseline does not move), so a Keep/Undo click still finds its hunk.
   */
  readonly id: string;
  /** Character range in the baseline that the agent replaced… */
  readonly baseStart: number;
  readonly baseEnd: number;
  /** …and the range in the current text that replaced it. */
  readonly curStart: number;
  readonly curEnd: number;
  readonly removedText: string;
  readonly addedText: string;
  /** 1-based line of the hunk in the current text (for decorations and "open diff"). */
  readonly curLine: number;
  readonly curLineCount: number;
  readonly added: number;
  readonly removed: number;
}

export function computeHunks(baseline: string, current: string): Hunk[] {
  const hunks: Hunk[] = [];
  let b = 0;
  let c = 0;
  let line = 1;
  let open: { b: number; c: number; line: number; removed: string; added: string; nAdd: number; nDel: number } | undefined;
  const close = () => {
    if (!open) return;
    hunks.push({
      id: `b${open.b}-${open.b + open.removed.length}`, baseStart: open.b, baseEnd: open.b + open.removed.length, curStart: open.c, curEnd: open.c + open.added.length,
      removedText: open.removed, addedText: open.added, curLine: open.line, curLineCount: open.nAdd, added: open.nAdd, removed: open.nDel,
    });
    open = undefined;
  };
  for (const part of diffLines(baseline, current)) {
    const n = part.count ?? countLines(part.value);
    if (!part.added && !part.removed) {
      close();
      b += part.value.length;
      c += part.value.length;
      line += n;
      continue;
    }
    open ??= { b, c, line, removed: '', added: '', nAdd: 0, nDel: 0 };
    if (part.removed) { open.removed += part.value; open.nDel += n; b += part.value.length; }
    else { open.added += part.value; open.nAdd += n; c += part.value.length; line += n; }
  }
  close();
  return hunks;
}

/** The baseline with `hunk` accepted into it. */
export function keepHunk(baseline: string, hunk: Hunk): string {
  return baseline.slice(0, hunk.baseStart) + hunk.addedText + baseline.slice(hunk.baseEnd);
}

/** The current text with `hunk` reverted. */
export function undoHunk(current: string, hunk: Hunk): string {
  return current.slice(0, hunk.curStart) + hunk.removedText + current.slice(hunk.curEnd);
}

function countLines(text: string): number {
  if (!text) return 0;
  const n = text.split('\n').length;
  return text.endsWith('\n') ? n - 1 : n;
}
