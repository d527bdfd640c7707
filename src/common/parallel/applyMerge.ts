// What a user's file becomes when a parallel run is applied: the run's version where the user did
// not change the file since the run started; a line merge (common/fs/merge) where both changed
// different lines; otherwise a conflict, and the user's file is left as it is.
import { merge3 } from '../fs/merge';

/** Text that is not UTF-8 or holds NUL bytes is not merged line by line. */
function isText(b: Uint8Array): boolean {
  if (b.includes(0)) return false;
  try { new TextDecoder('utf-8', { fatal: true }).decode(b); return true; } catch { return false; }
}

function same(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (!a || !b) return a === b;
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * `base`: the file when the run started, `ours`: the user's file now, `theirs`: the run's; undefined:
 * no file. Returns the new content, null to delete the file, or 'conflict'.
 */
export function mergeApplied(base: Uint8Array | undefined, ours: Uint8Array | undefined, theirs: Uint8Array | undefined): Uint8Array | null | 'conflict' {
  if (same(ours, base) || same(ours, theirs)) return theirs ?? null;
  if (!ours || !theirs || !base || !isText(base) || !isText(ours) || !isText(theirs)) return 'conflict';
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  const merged = mergeTexts(text(base), text(ours), text(theirs));
  return merged === 'conflict' || merged === null ? merged : new TextEncoder().encode(merged);
}

/**
 * The same with texts (a tab's unsaved text as `ours`: the run's change must merge into it too, or
 * the file is not applied). Undefined: no file (no text).
 */
export function mergeTexts(base: string | undefined, ours: string | undefined, theirs: string | undefined): string | null | 'conflict' {
  if (ours === base || ours === theirs) return theirs ?? null;
  if (ours === undefined || theirs === undefined || base === undefined) return 'conflict';
  const merged = merge3(base, ours, theirs);
  return merged.conflicts.length ? 'conflict' : merged.text;
}
