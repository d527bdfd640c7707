// Agent text is markdown from an untrusted source: markdown-it with raw HTML off, then DOMPurify
// on the produced HTML before it touches the DOM. Links are not followed by the webview; the host
// opens them (refusing `command:` and other schemes).
import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';
import * as l10n from '@vscode/l10n';

const md = new MarkdownIt({ html: false, linkify: true, breaks: false });

// Code blocks get a copy button; the language is kept as a class for styling only.
const defaultFence = md.renderer.rules.fence!;
md.renderer.rules.fence = (tokens, idx, options, env, self) =>
  `<div class="code-block"><button type="button" class="copy codicon codicon-copy" title="${md.utils.escapeHtml(l10n.t('Copy'))}" aria-label="${md.utils.escapeHtml(l10n.t('Copy code'))}"></button>${defaultFence(tokens, idx, options, env, self)}</div>`;

const PURIFY = {
  ALLOWED_TAGS: ['p', 'br', 'hr', 'em', 'strong', 'del', 's', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'a',
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'div', 'button', 'span', 'img'],
  ALLOWED_ATTR: ['href', 'title', 'class', 'type', 'aria-label', 'start', 'align', 'src', 'alt'],
  // Images only from data: URIs (the CSP also refuses remote images: no tracking pixels).
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|file:|data:image\/(?:png|jpeg|gif|webp);|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
};

export function renderMarkdown(text: string): string {
  // A code block wider than the view scrolls sideways: the keyboard can reach it (and scroll it).
  return (DOMPurify.sanitize(md.render(text), PURIFY) as unknown as string).replace(/<pre>/g, '<pre tabindex="0">');
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

const PURIFY_INLINE = { ALLOWED_TAGS: ['code', 'em', 'strong', 'del', 's'], ALLOWED_ATTR: [] as string[] };

/** One line of agent markdown (a tool or permission title): code spans and emphasis only; links and the rest stay text. */
export function renderInlineMarkdown(text: string): string {
  return DOMPurify.sanitize(md.renderInline(text), PURIFY_INLINE) as unknown as string;
}
