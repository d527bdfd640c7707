// Line diffs and a three-way merge (diff3) on top of jsdiff.
//
// The agent's write is applied as the change from the text it last read (base) to its new content
// (theirs), merged into the current buffer (ours), so the user's concurrent edits survive. Where
// both changed the same lines differently, that region is a conflict: `mergeRegions` reports it
// for the user to settle (see reviewMerge.ts); `merge3` settles it by a given preference.
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

/** How a conflict is settled: the user's text, the agent's, or both (the user's first). */
export type Resolution = 'ours' | 'theirs' | 'both';

export interface ConflictSides {
  readonly base: string;
  readonly ours: string;
  readonly theirs: string;
}

export interface Conflict extends ConflictSides {
  /** 0-based line range of the region in the merged text. */
  readonly startLine: number;
  readonly endLine: number;
}

export interface MergeResult {
  readonly text: string;
  readonly conflicts: readonly Conflict[];
}

/** A stretch of the merge: lines both sides agree on (or only one side changed), or a conflict. */
export type MergeRegion =
  | { readonly kind: 'clean'; readonly lines: readonly string[] }
  | { readonly kind: 'conflict'; readonly base: readonly string[]; readonly ours: readonly string[]; readonly theirs: readonly string[] };

export interface MergeOptions {
  /**
   * Changes of the two sides that touch (no unchanged line between them, e.g. a line the user
   * appended right after the last line the agent rewrote) are a conflict too, as in git. Without
   * it they are merged side by side.
   */
  readonly touching?: boolean;
}

interface SidedHunk extends Hunk {
  readonly side: 'ours' | 'theirs';
}

/**
 * diff3: applies both sides' changes to `base`, as regions. Changes to disjoint lines are both
 * kept; identical changes are kept once; different changes to overlapping lines (or two different
 * insertions at the same place, or an insertion inside the other side's change; with `touching`,
 * also changes that only touch) are conflicts.
 */
export function mergeRegions(base: string, ours: string, theirs: string, options: MergeOptions = {}): MergeRegion[] {
  const b = splitLinesKeepEnds(base);
  const hunks: SidedHunk[] = [
    ...diffLineArrays(b, splitLinesKeepEnds(ours)).map(h => ({ ...h, side: 'ours' as const })),
    ...diffLineArrays(b, splitLinesKeepEnds(theirs)).map(h => ({ ...h, side: 'theirs' as const })),
  ].sort((x, y) => x.start - y.start || x.end - y.end);

  const regions: MergeRegion[] = [];
  let clean: string[] = [];
  const flush = () => { if (clean.length) regions.push({ kind: 'clean', lines: clean }); clean = []; };
  let pos = 0; // next base line not yet copied
  let i = 0;
  while (i < hunks.length) {
    // A group: hunks whose base ranges overlap (see the rule above) with the group so far.
    const group = [hunks[i]];
    let gStart = hunks[i].start;
    let gEnd = hunks[i].end;
    for (i++; i < hunks.length; i++) {
      const h = hunks[i];
      const overlaps = h.start < gEnd || (h.start === gEnd && (options.touching || (h.start === h.end && gStart === gEnd)));
      if (!overlaps) break;
      group.push(h);
      gEnd = Math.max(gEnd, h.end);
      gStart = Math.min(gStart, h.start);
    }
    for (; pos < gStart; pos++) clean.push(b[pos]);
    const sides = new Set(group.map(h => h.side));
    if (sides.size === 1) {
      for (const h of group) clean.push(...h.lines);
    } else {
      const mine = applySide(b, gStart, gEnd, group, 'ours');
      const agent = applySide(b, gStart, gEnd, group, 'theirs');
      if (mine.join('') === agent.join('')) {
        clean.push(...agent);
      } else {
        flush();
        regions.push({ kind: 'conflict', base: b.slice(gStart, gEnd), ours: mine, theirs: agent });
      }
    }
    pos = gEnd;
  }
  for (; pos < b.length; pos++) clean.push(b[pos]);
  flush();
  return regions;
}

/**
 * The merged text, each conflict settled by `prefer` (a side, or a function of the conflict and its
 * index); every conflict is reported, whichever way it was settled.
 */
export function merge3(
  base: string, ours: string, theirs: string,
  prefer: Resolution | ((c: ConflictSides, index: number) => Resolution) = 'theirs',
  options: MergeOptions = {},
): MergeResult {
  if (ours === base || ours === theirs) return { text: theirs, conflicts: [] };
  if (theirs === base) return { text: ours, conflicts: [] };
  const out: string[] = [];
  const conflicts: Conflict[] = [];
  for (const r of mergeRegions(base, ours, theirs, options)) {
    if (r.kind === 'clean') { out.push(...r.lines); continue; }
    const sides = { base: r.base.join(''), ours: r.ours.join(''), theirs: r.theirs.join('') };
    const chosen = resolveLines(r, typeof prefer === 'function' ? prefer(sides, conflicts.length) : prefer);
    conflicts.push({ startLine: out.length, endLine: out.length + chosen.length, ...sides });
    out.push(...chosen);
  }
  return { text: out.join(''), conflicts };
}

/** The lines a conflict becomes under a resolution; "both" never glues two lines into one. */
export function resolveLines(c: { readonly ours: readonly string[]; readonly theirs: readonly string[] }, resolution: Resolution): string[] {
  if (resolution === 'ours') return [...c.ours];
  if (resolution === 'theirs') return [...c.theirs];
  return [...withFinalEol(c.ours, eolOf([...c.ours, ...c.theirs])), ...c.theirs];
}

/** The line ending these lines use (the first one found), `\n` if none. */
export function eolOf(lines: readonly string[]): string {
  for (const l of lines) {
    const m = /\r\n$|\n$|\r$/.exec(l);
    if (m) return m[0];
  }
  return '\n';
}

/** The lines with an ending added to the last one if it has none (something follows it). */
export function withFinalEol(lines: readonly string[], eol: string): string[] {
  if (!lines.length || /[\r\n]$/.test(lines[lines.length - 1])) return [...lines];
  return [...lines.slice(0, -1), lines[lines.length - 1] + eol];
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
