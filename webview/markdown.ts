// Agent text is markdown from an untrusted source: markdown-it with raw HTML off, then DOMPurify
// on the produced HTML before it touches the DOM. Links are not followed by the webview; the host
// opens them (refusing `command:` and other schemes).
// This module is most of the webview's code: it loads on first need (import it through
// lazyMarkdown.ts, never statically; the build splits it into dist/webview/markdown.js).
import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';

/** markdown-it's options (test/unit/plainMarkdown.test.ts renders with them). */
export const MARKDOWN_OPTIONS = { html: false, linkify: true, breaks: false } as const;
const md = new MarkdownIt(MARKDOWN_OPTIONS);

// Code blocks get a copy button; the language is kept as a class for styling only. Its labels come
// from the caller (lazyMarkdown.ts translates them), so this bundle shares no module with chat.js (the build refuses one).
const labels = { copy: 'Copy', copyCode: 'Copy code' };
export function setLabels(copy: string, copyCode: string): void {
  labels.copy = copy;
  labels.copyCode = copyCode;
}
const defaultFence = md.renderer.rules.fence!;
md.renderer.rules.fence = (tokens, idx, options, env, self) =>
  `<div class="code-block"><button type="button" class="copy codicon codicon-copy" title="${md.utils.escapeHtml(labels.copy)}" aria-label="${md.utils.escapeHtml(labels.copyCode)}"></button>${defaultFence(tokens, idx, options, env, self)}</div>`;

const PURIFY = {
  ALLOWED_TAGS: ['p', 'br', 'hr', 'em', 'strong', 'del', 's', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'a',
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'div', 'button', 'span', 'img'],
  ALLOWED_ATTR: ['href', 'title', 'class', 'type', 'aria-label', 'start', 'align', 'src', 'alt'],
  // Images only from data: URIs (the CSP also refuses remote images: no tracking pixels).
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|file:|data:image\/(?:png|jpeg|gif|webp);|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
};

/**
 * One sanitizer per configuration, set once: DOMPurify otherwise parses the configuration (copying
 * its lists) on every call, a third of its time when a long turn streams hundreds of cards a second.
 */
function sanitizer(config: Parameters<typeof DOMPurify.setConfig>[0]): (html: string) => string {
  let purify: typeof DOMPurify | undefined;
  return html => {
    if (!purify) { purify = DOMPurify(window); purify.setConfig(config); }
    return purify.sanitize(html) as unknown as string;
  };
}
const sanitize = sanitizer(PURIFY);

export function renderMarkdown(text: string): string {
  // A code block wider than the view scrolls sideways: the keyboard can reach it (and scroll it).
  return sanitize(md.render(text)).replace(/<pre>/g, '<pre tabindex="0">');
}

/**
 * Line numbers where the top-level blocks of `text` start, as markdown-it parses it (so fences
 * indented inside list items, setext headings and lazy lines are judged exactly as rendered).
 */
export function topLevelBlockStarts(text: string): number[] {
  const starts: number[] = [];
  for (const t of md.parse(text, {})) if (t.level === 0 && t.nesting !== -1 && t.map) starts.push(t.map[0]);
  return starts;
}

/**
 * For a streamed message (streamedMarkdown.ts): offset where the last top-level block of `text` starts, when a blank line precedes it, or 0.
 * Every block before it is complete: nothing that arrives later can change how it renders, so it is
 * rendered once and frozen. The blocks come from markdown-it's own parse, so a code fence inside a
 * list item (indented four or more spaces) is never cut at a blank line inside it.
 */
export function lastBlockBoundary(text: string): number {
  const starts = topLevelBlockStarts(text);
  // The last block stays open; freeze up to the start of the last block that follows a blank line.
  const lines = text.split('\n');
  for (let i = starts.length - 1; i >= 1; i--) {
    const line = starts[i];
    if (line > 0 && lines[line - 1].trim() === '') {
      let offset = 0;
      for (let k = 0; k < line; k++) offset += lines[k].length + 1;
      return offset;
    }
  }
  return 0;
}

const sanitizeInline = sanitizer({ ALLOWED_TAGS: ['code', 'em', 'strong', 'del', 's'], ALLOWED_ATTR: [] as string[] });

/** One line of agent markdown (a tool or permission title): code spans and emphasis only; links and the rest stay text. */
export function renderInlineMarkdown(text: string): string {
  return sanitizeInline(md.renderInline(text));
}
