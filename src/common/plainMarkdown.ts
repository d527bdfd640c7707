// Agent text that has no markdown in it: shown without markdown-it and DOMPurify (webview/markdown.ts's
// `renderMarkdown`), as the paragraphs markdown-it would make of it. Most tool output and many
// streamed chunks are such text; a long turn renders thousands of them.
//
// The rule is conservative: a text is taken only when nothing in it can start a block (heading,
// list, quote, fence, indented code, table, thematic break, setext underline), an inline (emphasis,
// code span, link, image, autolink, entity, escape, hard break) or a link markdown-it's linkify would
// find (a scheme, `//`, `@`, a dot followed by a letter as in `file.md`, `localhost`), and no
// whitespace markdown-it treats apart from JavaScript's trim (tabs, no-break and zero-width spaces).
// Anything else goes to markdown-it. test/unit/plainMarkdown.test.ts checks that the paragraphs are
// exactly what markdown-it renders, over hand-picked, fuzzed and burst texts.

/** What markdown-it would render for a text without markdown: its paragraphs, in order. */
export interface PlainText {
  /** Each paragraph's text, as it would be shown (lines trimmed of spaces, joined by `\n`). */
  readonly paragraphs: readonly string[];
  /**
   * Offset where the last paragraph starts when a blank line precedes it (what a streamed message
   * may freeze before it: webview/markdown.ts's `lastBlockBoundary`), else 0.
   */
  readonly lastBlockBoundary: number;
}

/**
 * Characters that may start markdown or a link anywhere in a text, or that markdown-it handles
 * apart (control characters, whitespace other than the space and the newline: tabs, no-break,
 * zero-width no-break, line and paragraph separators; JavaScript's trim removes them, markdown-it's
 * block parser does not); a dot, a colon followed by something other than whitespace (a domain, a
 * scheme: linkify), `//` and `localhost` (linkify).
 */
const MAYBE_MARKDOWN = /[\0-\x09\x0b-\x1f\x7f\\`*_~[\]!<>&#|@\u0085\u00a0\u1680\u180e\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]|[.:](?![ \n]|$)|\/\/|localhost/i;
/** A line that may start a block: indented code (4 spaces), list, thematic break, setext underline, ordered list. */
const BLOCK_START = /^(?: {4}| {0,3}[-+=]| {0,3}\d{1,9}[.)])/;

/** The paragraphs markdown-it makes of `text`, or undefined when `text` may hold markdown (render it with markdown-it). */
export function plainText(text: string): PlainText | undefined {
  if (MAYBE_MARKDOWN.test(text)) return undefined;
  const paragraphs: string[] = [];
  let lastBlockBoundary = 0;
  let lines: string[] = [];
  let blankBefore = false;
  let offset = 0;
  for (const line of text.split('\n')) {
    const start = offset;
    offset += line.length + 1;
    const trimmed = line.replace(/^ +| +$/g, '');
    if (!trimmed) {
      if (lines.length) { paragraphs.push(lines.join('\n')); lines = []; }
      blankBefore = true;
      continue;
    }
    if (BLOCK_START.test(line)) return undefined;
    // Two spaces or more before a line break make a hard break (<br>).
    if (/ {2}$/.test(line)) return undefined;
    if (!lines.length && blankBefore && paragraphs.length) lastBlockBoundary = start;
    lines.push(trimmed);
  }
  if (lines.length) paragraphs.push(lines.join('\n'));
  return { paragraphs, lastBlockBoundary };
}

/**
 * Whether one line of agent markdown (a title: webview/markdown.ts's `renderInlineMarkdown`) is
 * plain text, shown as it is (markdown-it would write it escaped, nothing more).
 */
export function plainInline(text: string): boolean {
  return !text.includes('\n') && !MAYBE_MARKDOWN.test(text);
}
