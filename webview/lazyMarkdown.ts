// The markdown renderer (markdown-it + DOMPurify, most of the webview's code) loads on first need,
// from its own file (dist/webview/markdown.js, an ESM bundle chat.js imports with import()): an empty chat never loads it.
// Until it has loaded, agent text is shown as plain text (textContent, never HTML) and rendered when
// it arrives.
import * as l10n from '@vscode/l10n';
import type * as Markdown from './markdown';

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

/** Starts loading the renderer (once); a no-op when it is loaded or loading. */
export function loadMarkdown(): void {
  loading ??= import('./markdown').then(md => {
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
  withMarkdown(md => {
    el.classList.remove('md-plain');
    el.innerHTML = inline ? md.renderInlineMarkdown(text) : md.renderMarkdown(text);
  }, () => {
    el.textContent = text;
    if (!inline) el.classList.add('md-plain');
  });
}
