// A long turn renders only the items in view (webview/itemWindow.ts): how long "long" is, and how
// tall an item is guessed to be before it was ever rendered (the guess only sizes the scrollbar
// until the item is measured). Pure: no DOM.
import type { Item } from './transcript';

/** A turn with more items than this shows only those in view (and a few around). */
export const ITEM_WINDOW_FROM = 80;

/** Items rendered beyond the view, each way. */
export const ITEM_OVERSCAN = 6;

/** The space between two items of a turn (px), as `.turn { gap }` in chat.css. */
export const ITEM_GAP = 8;

const LINE_PX = 20;
const CHARS_PER_LINE = 80;
/** Tool output and long messages scroll inside their box (chat.css: max-height 16em). */
const MAX_BODY_LINES = 16;

/** Whether a turn of `count` items renders only the items in view. */
export function windowed(count: number): boolean {
  return count > ITEM_WINDOW_FROM;
}

function textLines(text: string, cap: number): number {
  if (!text) return 0;
  let lines = 1;
  for (let at = text.indexOf('\n'); at >= 0 && lines < cap; at = text.indexOf('\n', at + 1)) lines++;
  return Math.min(cap, Math.max(lines, Math.ceil(Math.min(text.length, cap * CHARS_PER_LINE) / CHARS_PER_LINE)));
}

/** A guess at an item's height (px) before it is rendered. */
export function estimateItemHeight(item: Item): number {
  switch (item.kind) {
    case 'user': return 40 + LINE_PX * textLines(item.text, 12);
    case 'agent': case 'thought': return 24 + LINE_PX * textLines(item.text, 400);
    case 'tool': {
      let lines = 0;
      for (const c of item.tool.content) lines += c.type === 'text' ? textLines(c.text, MAX_BODY_LINES) : c.type === 'diff' ? Math.min(MAX_BODY_LINES, c.preview.lines.length) + 1 : 4;
      return 36 + LINE_PX * Math.min(lines, 3 * MAX_BODY_LINES) + (item.tool.locations?.length ? 20 : 0);
    }
    case 'permission': case 'question': return 120;
    case 'turnEnd': return 24;
    default: return 48;
  }
}
