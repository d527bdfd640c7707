// Several turns' changes of one file, stacked (issue 19 point 3, decision 0025): a later turn of
// another conversation that changes a file still undecided from an earlier turn gets an entry of
// its own whose baseline is the earlier entry's current text. Undo of a lower entry takes its change
// out of every text built on it (the entries above, the file), three-way, so the later changes
// stay; where they overlap it cannot be done cleanly and nothing is touched. Pure.
import { merge3 } from '../fs/merge';

/** Which entry a turn's change of a file goes to, given the file's top entry (the latest). */
export function stackChoice(top: { readonly turnId: string; readonly tabId: string } | undefined, turn: { readonly turnId: string; readonly tabId: string }, turnHasEntry: boolean): 'own' | 'top' | 'stack' {
  if (!top || top.turnId === turn.turnId) return 'own';
  // One conversation's turns are reviewed together (one entry, like one review of a conversation's
  // accumulated edits); a turn whose entry is already lower in the stack joins the top one (its
  // change is built on the later turns' and cannot be told apart from them).
  if (top.tabId === turn.tabId || turnHasEntry) return 'top';
  return 'stack';
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
