// The markdown renderer (markdown-it + DOMPurify, most of the webview's code) loads on first need,
// from its own file (dist/webview/markdown.js, an ESM bundle chat.js imports with import()): an empty chat never loads it.
// Until it has loaded, agent text is shown as plain text (textContent, never HTML) and rendered when
// it arrives.
import * as l10n from '@vscode/l10n';
import type * as Markdown from './markdown';
import { plainInline, plainText } from '../src/common/plainMarkdown';

export type MarkdownModule = typeof Markdown;

let loaded: MarkdownModule | undefined;
let loading: Promise<void> | undefined;
const upgrades: ((md: MarkdownModule) => void)[] = [];
/** Runs the upgrades that waited for the renderer (the transcript wraps them to keep to its end). */
let applyUpgrades = (apply: () => void) => apply();

/** The renderer when it has loaded, else undefined (and it starts loading). */
export function loadedMarkdown(): MarkdownModule | undefined {
  if (!loaded) loadMarkdown();
  return loaded;
}

/**
 * Where the renderer is: the page names it (the chat's script is written into the page, so a
 * relative import() would resolve against the page's own address); else beside this script.
 */
const rendererUrl = (): string => document.body.dataset.markdown || './markdown.js';

/** Starts loading the renderer (once); a no-op when it is loaded or loading. */
export function loadMarkdown(): void {
  loading ??= (import(rendererUrl()) as Promise<MarkdownModule>).then(md => {
    md.setLabels(l10n.t('Copy'), l10n.t('Copy code'));
    loaded = md;
    applyUpgrades(() => { for (const f of upgrades.splice(0)) f(md); });
  }, err => {
    // Text stays plain (it is already on screen); a later need tries again.
    loading = undefined;
    console.error('Switchboard: the markdown renderer failed to load', err);
  });
}

/** `render(md)` now when the renderer has loaded; otherwise `fallback()` now and `render(md)` when it arrives. */
export function withMarkdown(render: (md: MarkdownModule) => void, fallback: () => void = () => {}): void {
  const md = loadedMarkdown();
  if (md) return render(md);
  fallback();
  upgrades.push(render);
}

/** How the upgrades run when the renderer arrives: `wrap` must call `apply` once, synchronously. */
export function onMarkdownLoaded(wrap: (apply: () => void) => void): void {
  applyUpgrades = wrap;
}

/** `el` shows `text` as markdown (`inline`: one line, code spans and emphasis only); plain text until the renderer loads. */
export function setMarkdown(el: HTMLElement, text: string, inline = false): void {
  // Text without markdown: shown as markdown-it renders it, without it (nor DOMPurify, nor HTML parsing).
  if (inline ? plainInline(text) : setPlain(el, text)) {
    if (inline) el.textContent = text;
    return;
  }
  withMarkdown(md => {
    el.classList.remove('md-plain');
    el.innerHTML = inline ? md.renderInlineMarkdown(text) : md.renderMarkdown(text);
  }, () => {
    el.textContent = text;
    if (!inline) el.classList.add('md-plain');
  });
}

/** When `text` holds no markdown (src/common/plainMarkdown.ts): `el` shows its paragraphs as markdown-it renders them, and true. */
export function setPlain(el: HTMLElement, text: string): boolean {
  const plain = plainText(text);
  if (plain) setParagraphs(el, plain.paragraphs);
  return !!plain;
}

/** `el` holds these paragraphs, as markdown-it's `<p>…</p>\n` would make them (text nodes: never HTML). */
export function setParagraphs(el: HTMLElement, paragraphs: readonly string[]): void {
  el.classList.remove('md-plain');
  const nodes: Node[] = [];
  for (const text of paragraphs) {
    const p = document.createElement('p');
    p.textContent = text;
    nodes.push(p, document.createTextNode('\n'));
  }
  el.replaceChildren(...nodes);
}
