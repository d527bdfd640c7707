// Several turns' changes of one file, stacked (issue 19 point 3, decision 0025): a later turn of
// another conversation that changes a file still undecided from an earlier turn gets an entry of
// its own whose baseline is the earlier entry's current text. Undo of a lower entry takes its change
// out of every text built on it (the entries above, the file), three-way, so the later changes
// stay; where they overlap it cannot be done cleanly and nothing is touched. Pure.
import { splitLinesKeepEnds } from '../fs/lines';
import { diffLineArrays, merge3 } from '../fs/merge';

/**
 * Which entry a turn's change of a file goes to, given the file's top entry (the latest): its own,
 * the top one, a new one of its own stacked on top (`stack`), or, when the turn's entry is already
 * lower in the stack, a new entry of its conversation stacked on top (`again`: one turn, two entries).
 */
export function stackChoice(top: { readonly turnId: string; readonly tabId: string } | undefined, turn: { readonly turnId: string; readonly tabId: string }, turnHasEntry: boolean): 'own' | 'top' | 'stack' | 'again' {
  if (!top || top.turnId === turn.turnId) return 'own';
  // One conversation's turns are reviewed together (one entry, like one review of a conversation's
  // accumulated edits).
  if (top.tabId === turn.tabId) return 'top';
  // A turn that writes the file again after another conversation's change: its new change is its
  // own (the Undo of the other's never undoes it), on top of the other's, which it is built on.
  return turnHasEntry ? 'again' : 'stack';
}

/**
 * A lower entry's current text `from` becomes `to` (its change, or one hunk of it, undone): the same
 * change applied to each text built on `from`. Undefined when a text's later changes overlap it (or a
 * side is a deleted file or bytes, which cannot be merged): then nothing may be written.
 */
export function carryUnder(from: string | null, to: string | null, texts: readonly (string | null)[]): (string | null)[] | undefined {
  const out: (string | null)[] = [];
  for (const text of texts) {
    if (text === from) { out.push(to); continue; }
    if (from === null || to === null || text === null) return undefined;
    const merged = merge3(from, text, to);
    if (merged.conflicts.length) return undefined;
    out.push(merged.text);
  }
  return out;
}

/**
 * The first of the entries above (bottom up) that a lower entry's undo `from` → `to` cannot be
 * carried through (see carryUnder; undefined: an entry that cannot be merged, e.g. bytes): the one
 * whose change overlaps it, to name to the user and undo with it. -1 when there is none.
 */
export function firstOverlap(from: string | null, to: string | null, above: readonly ({ readonly baseline: string | null; readonly current: string | null } | undefined)[]): number {
  return above.findIndex(c => !c || !carryUnder(from, to, [c.baseline, c.current]));
}

/**
 * Where a lower entry's hunks are in the file the user sees: the function returned maps a hunk's
 * lines (1-based `line`, `count` lines; 0 for a deletion, shown at `line`) in the entry's own current
 * text through each entry above (`above`: their baseline → current, bottom up). Lines added or removed before the
 * hunk move it; a change above that rewrote its lines gives that change's lines.
 */
export function lineThrough(above: readonly { readonly baseline: string | null; readonly current: string | null }[]): (line: number, count: number) => { line: number; count: number } {
  // Each entry's diff once, for all the hunks mapped through it.
  const steps = above.filter(step => step.baseline !== step.current).map(step => diffLineArrays(splitLinesKeepEnds(step.baseline ?? ''), splitLinesKeepEnds(step.current ?? '')));
  return (line, count) => {
    let start = line - 1;
    let end = start + count;
    for (const hunks of steps) {
      const from = movedLine(start, hunks, true);
      end = count === 0 ? from : Math.max(from, movedLine(end, hunks, false));
      start = from;
    }
    return { line: start + 1, count: end - start };
  };
}

/** A 0-based line boundary `at` moved by `hunks`: the first line of a range (`first`), or the end of one. */
function movedLine(at: number, hunks: readonly { readonly start: number; readonly end: number; readonly lines: readonly string[] }[], first: boolean): number {
  let shift = 0;
  for (const h of hunks) {
    const delta = h.lines.length - (h.end - h.start);
    // Lines inserted right at the boundary are before the range's first line, after its end.
    if (h.start === h.end ? at > h.start || (at === h.start && first) : at >= h.end) { shift += delta; continue; }
    // Inside lines the change above rewrote: the range takes in its new lines.
    if (at > h.start) return h.start + shift + (first ? 0 : h.lines.length);
    break;
  }
  return at + shift;
}
