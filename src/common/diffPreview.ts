// A compact, bounded view of a change for a chat card: counts and the first changed lines. The
// full diff opens in VS Code's diff editor; the card must stay small however big the file is.
import { structuredPatch } from 'diff';

export interface DiffPreview {
  readonly added: number;
  readonly removed: number;
  /** Unified-diff lines ("+x", "-y", " z", "@@ …"), at most MAX_LINES. */
  readonly lines: readonly string[];
  readonly truncated: boolean;
}

const MAX_LINES = 40;
const MAX_LINE_CHARS = 300;

/**
 * `lineNumbers: false` for a change whose place in the file is unknown (a snippet that could not be
 * located): no `@@` headers, since their line numbers would be made up.
 */
export function compactDiff(oldText: string, newText: string, options: { lineNumbers?: boolean } = {}): DiffPreview {
  const patch = structuredPatch('a', 'b', oldText, newText, '', '', { context: 3 });
  let added = 0;
  let removed = 0;
  const lines: string[] = [];
  let truncated = false;
  for (const hunk of patch.hunks) {
    const body = hunk.lines.filter(l => !l.startsWith('\\'));
    for (const l of body) {
      if (l[0] === '+') added++;
      else if (l[0] === '-') removed++;
    }
    const block = options.lineNumbers === false ? body : [`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`, ...body];
    for (const l of block) {
      if (lines.length >= MAX_LINES) { truncated = true; break; }
      lines.push(l.length > MAX_LINE_CHARS ? l.slice(0, MAX_LINE_CHARS) + '…' : l);
    }
  }
  return { added, removed, lines, truncated };
}
