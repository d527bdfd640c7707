// Line diffs and a three-way merge (diff3) on top of jsdiff.
//
// The agent's write is applied as the change from the text it last read (base) to its new content
// (theirs), merged into the current buffer (ours), so the user's concurrent edits survive. Where
// both changed the same lines differently, that region is a conflict: the merged text takes one
// side (the agent's by default, which the review diff then shows against the user's text).
import { diffArrays } from 'diff';
import { splitLinesKeepEnds } from './lines';

/** Lines [start, end) of the old text are replaced by `lines`. */
export interface Hunk {
  readonly start: number;
  readonly end: number;
  readonly lines: readonly string[];
}

/** Beyond this many changed lines (or this long) the diff gives up and reports one hunk over the changed middle. */
const MAX_EDIT_LENGTH = 2000;
const DIFF_TIMEOUT_MS = 200;

/** The changes from `a` to `b` as hunks in `a`'s line numbers, in order, never overlapping. */
export function diffLineArrays(a: readonly string[], b: readonly string[]): Hunk[] {
  // Common prefix and suffix first: cheap, and it keeps jsdiff's work to the changed middle.
  let pre = 0;
  const max = Math.min(a.length, b.length);
  while (pre < max && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < max - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const am = a.slice(pre, a.length - suf);
  const bm = b.slice(pre, b.length - suf);
  if (am.length === 0 && bm.length === 0) return [];
  if (am.length === 0 || bm.length === 0) return [{ start: pre, end: pre + am.length, lines: bm }];
  const changes = diffArrays(am, bm, { maxEditLength: MAX_EDIT_LENGTH, timeout: DIFF_TIMEOUT_MS });
  if (!changes) return [{ start: pre, end: pre + am.length, lines: bm }];
  const hunks: Hunk[] = [];
  let pos = pre;
  let open: { start: number; end: number; lines: string[] } | undefined;
  for (const c of changes) {
    if (!c.added && !c.removed) {
      if (open) { hunks.push(open); open = undefined; }
      pos += c.count;
      continue;
    }
    open ??= { start: pos, end: pos, lines: [] };
    if (c.removed) { open.end += c.count; pos += c.count; } else open.lines.push(...c.value);
  }
  if (open) hunks.push(open);
  return hunks;
}

/** A minimal replacement in character offsets of the old text: [start, end) becomes `text`. */
export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** The edits that turn `oldText` into `newText`, by whole lines, as character offsets in `oldText`. */
export function lineEdits(oldText: string, newText: string): TextEdit[] {
  if (oldText === newText) return [];
  const a = splitLinesKeepEnds(oldText);
  const b = splitLinesKeepEnds(newText);
  const offsets = new Array<number>(a.length + 1);
  offsets[0] = 0;
  for (let i = 0; i < a.length; i++) offsets[i + 1] = offsets[i] + a[i].length;
  return diffLineArrays(a, b).map(h => ({ start: offsets[h.start], end: offsets[h.end], text: h.lines.join('') }));
}

export interface Conflict {
  /** 0-based line range of the region in the merged text. */
  readonly startLine: number;
  readonly endLine: number;
  readonly base: string;
  readonly ours: string;
  readonly theirs: string;
}

export interface MergeResult {
  readonly text: string;
  readonly conflicts: readonly Conflict[];
}

interface SidedHunk extends Hunk {
  readonly side: 'ours' | 'theirs';
}

/**
 * diff3: applies both sides' changes to `base`. Changes to disjoint lines are both kept; identical
 * changes are kept once; different changes to overlapping lines (or two different insertions at
 * the same place, or an insertion inside the other side's change) are conflicts, resolved with
 * `prefer`'s version and reported. Insertions right next to the other side's change are not
 * conflicts.
 */
export function merge3(base: string, ours: string, theirs: string, prefer: 'ours' | 'theirs' = 'theirs'): MergeResult {
  if (ours === base || ours === theirs) return { text: theirs, conflicts: [] };
  if (theirs === base) return { text: ours, conflicts: [] };
  const b = splitLinesKeepEnds(base);
  const hunks: SidedHunk[] = [
    ...diffLineArrays(b, splitLinesKeepEnds(ours)).map(h => ({ ...h, side: 'ours' as const })),
    ...diffLineArrays(b, splitLinesKeepEnds(theirs)).map(h => ({ ...h, side: 'theirs' as const })),
  ].sort((x, y) => x.start - y.start || x.end - y.end);

  const out: string[] = [];
  const conflicts: Conflict[] = [];
  let pos = 0; // next base line not yet copied
  let i = 0;
  while (i < hunks.length) {
    // A group: hunks whose base ranges overlap (see the rule above) with the group so far.
    const group = [hunks[i]];
    let gStart = hunks[i].start;
    let gEnd = hunks[i].end;
    for (i++; i < hunks.length; i++) {
      const h = hunks[i];
      const overlaps = h.start < gEnd || (h.start === gEnd && h.start === h.end && gStart === gEnd);
      if (!overlaps) break;
      group.push(h);
      gEnd = Math.max(gEnd, h.end);
      gStart = Math.min(gStart, h.start);
    }
    for (; pos < gStart; pos++) out.push(b[pos]);
    const sides = new Set(group.map(h => h.side));
    if (sides.size === 1) {
      for (const h of group) out.push(...h.lines);
    } else {
      const mine = applySide(b, gStart, gEnd, group, 'ours');
      const agent = applySide(b, gStart, gEnd, group, 'theirs');
      if (mine.join('') === agent.join('')) {
        out.push(...agent);
      } else {
        const chosen = prefer === 'theirs' ? agent : mine;
        conflicts.push({
          startLine: out.length, endLine: out.length + chosen.length,
          base: b.slice(gStart, gEnd).join(''), ours: mine.join(''), theirs: agent.join(''),
        });
        out.push(...chosen);
      }
    }
    pos = gEnd;
  }
  for (; pos < b.length; pos++) out.push(b[pos]);
  return { text: out.join(''), conflicts };
}

/** One side's version of base lines [start, end), given that side's hunks in the range. */
function applySide(b: readonly string[], start: number, end: number, group: readonly SidedHunk[], side: 'ours' | 'theirs'): string[] {
  const out: string[] = [];
  let pos = start;
  for (const h of group) {
    if (h.side !== side) continue;
    for (; pos < h.start; pos++) out.push(b[pos]);
    out.push(...h.lines);
    pos = h.end;
  }
  for (; pos < end; pos++) out.push(b[pos]);
  return out;
}
