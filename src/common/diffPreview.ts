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
  const lineNumbers = options.lineNumbers !== false;
  // Agents send a call's diff again with each update (Claude: at the start and at completion):
  // the same texts give the same preview.
  const hit = recent.get(newText);
  if (hit && hit.oldText === oldText && hit.lineNumbers === lineNumbers) return hit.preview;
  const hunks = structuredPatch('a', 'b', oldText, newText, '', '', { context: CONTEXT, maxEditLength: MAX_EDIT_LENGTH })?.hunks ?? [rewriteHunk(oldText, newText)];
  let added = 0;
  let removed = 0;
  const lines: string[] = [];
  let truncated = false;
  for (const hunk of hunks) {
    const body = hunk.lines.filter(l => !l.startsWith('\\'));
    for (const l of body) {
      if (l[0] === '+') added++;
      else if (l[0] === '-') removed++;
    }
    const block = lineNumbers ? [`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`, ...body] : body;
    for (const l of block) {
      if (lines.length >= MAX_LINES) { truncated = true; break; }
      lines.push(l.length > MAX_LINE_CHARS ? l.slice(0, MAX_LINE_CHARS) + '…' : l);
    }
  }
  const preview = { added, removed, lines, truncated };
  remember(newText, { oldText, lineNumbers, preview });
  return preview;
}

const CONTEXT = 3;
/**
 * Past this many changed lines the minimal diff is not looked for: its cost grows with the product
 * of the texts' length and their differences (a 64 KB rewrite took ~10 MB of garbage and tens of ms),
 * and the card shows 40 lines. The change is then shown as one block (see rewriteHunk).
 */
const MAX_EDIT_LENGTH = 2000;

interface Hunk { oldStart: number; oldLines: number; newStart: number; newLines: number; lines: string[] }

/**
 * A rewrite as one hunk: the lines both texts start and end with kept (as context, up to 3), all
 * between removed then added. Not the smallest diff, but a true one, found in linear time.
 */
function rewriteHunk(oldText: string, newText: string): Hunk {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const before = Math.min(head, CONTEXT);
  const after = Math.min(tail, CONTEXT);
  const start = head - before;
  const lines = [
    ...a.slice(start, head).map(l => ` ${l}`),
    ...a.slice(head, a.length - tail).map(l => `-${l}`),
    ...b.slice(head, b.length - tail).map(l => `+${l}`),
    ...a.slice(a.length - tail, a.length - tail + after).map(l => ` ${l}`),
  ];
  const oldLines = a.length - tail + after - start;
  const newLines = b.length - tail + after - start;
  // As in a unified diff, an empty side starts at the line before.
  return { oldStart: oldLines ? start + 1 : start, oldLines, newStart: newLines ? start + 1 : start, newLines, lines };
}

/** A text's lines without their ends (a final line break ends the last line; it starts none). */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The last previews made, by new text: at most RECENT, holding at most RECENT_CHARS of text. */
const RECENT = 64;
const RECENT_CHARS = 4_000_000;
const recent = new Map<string, { oldText: string; lineNumbers: boolean; preview: DiffPreview }>();
let recentChars = 0;

function remember(newText: string, entry: { oldText: string; lineNumbers: boolean; preview: DiffPreview }): void {
  const size = newText.length + entry.oldText.length;
  if (size > RECENT_CHARS / 4) return;
  forget(newText);
  recent.set(newText, entry);
  recentChars += size;
  while (recent.size > RECENT || recentChars > RECENT_CHARS) forget(recent.keys().next().value!);
}

function forget(newText: string): void {
  const entry = recent.get(newText);
  if (!entry) return;
  recent.delete(newText);
  recentChars -= newText.length + entry.oldText.length;
}
