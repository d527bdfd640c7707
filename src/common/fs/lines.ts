// Lines of a text with their endings kept (`\n`, `\r\n` or a lone `\r`, as VS Code counts them),
// and the `line`/`limit` window of `fs/read_text_file`. Pure and linear: a 5 MB file is scanned
// once, never split into an array just to take a slice.

/** Offset where the line after the one containing `pos` starts, or -1 when `pos` is on the last line. */
export function nextLineStart(text: string, pos: number): number {
  for (let i = pos; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) return i + 1;
    if (c === 13) return text.charCodeAt(i + 1) === 10 ? i + 2 : i + 1;
  }
  return -1;
}

/**
 * The `limit` lines starting at 1-based `line`, endings included, exactly as they are in `text`.
 * `line` 0 or absent means 1; no `limit` means to the end; a `line` past the last line gives ''.
 */
export function sliceLines(text: string, line?: number | null, limit?: number | null): string {
  if ((line ?? 1) <= 1 && limit == null) return text;
  const at = lineWindow(text.length, lineStarts(text), line, limit);
  return at ? text.slice(at[0], at[1]) : '';
}

/** Where the `limit` lines from `line` start and end in a text of `length` units, whose next line starts at `next(pos)`; undefined: none. */
export function lineWindow(length: number, next: (pos: number) => number, line?: number | null, limit?: number | null): [number, number] | undefined {
  const first = Math.max(1, line ?? 1);
  if (limit === 0) return undefined;
  let start = 0;
  for (let n = 1; n < first; n++) {
    start = next(start);
    if (start === -1) return undefined;
  }
  if (start >= length) return undefined;
  if (limit == null) return [start, length];
  let end = start;
  for (let n = 0; n < limit; n++) {
    const following = next(end);
    if (following === -1) { end = length; break; }
    end = following;
  }
  return [start, end];
}

/**
 * nextLineStart for calls with increasing positions, found with indexOf (a fast scan of the string)
 * instead of a loop over its characters: the next `\r` is looked up again only once passed, so a
 * text without any costs one indexOf for it.
 */
function lineStarts(text: string): (pos: number) => number {
  let cr = text.indexOf('\r');
  return pos => {
    if (cr !== -1 && cr < pos) cr = text.indexOf('\r', pos);
    const lf = text.indexOf('\n', pos);
    if (cr === -1 || (lf !== -1 && lf < cr)) return lf === -1 ? -1 : lf + 1;
    return text.charCodeAt(cr + 1) === 10 ? cr + 2 : cr + 1;
  };
}

/** Splits into lines that keep their endings; joining the result gives `text` back. '' → []. */
export function splitLinesKeepEnds(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  while (start < text.length) {
    const next = nextLineStart(text, start);
    if (next === -1) { lines.push(text.slice(start)); break; }
    lines.push(text.slice(start, next));
    start = next;
  }
  return lines;
}
