// Titles the agent gives tool calls and permission requests: its markdown, inline only, with paths
// shown relative to the workspace folders (which the host sends with each reset of the view).
import { escapeBidi } from '../src/common/bidi';
import { plainInline } from '../src/common/plainMarkdown';
import { relativizePaths } from '../src/common/relativePaths';
import { h } from './dom';
import { type MarkdownModule, setMarkdown, withMarkdown } from './lazyMarkdown';

/** Workspace folders: titles show paths relative to them. */
let roots: readonly string[] = [];

export function setRoots(folders: readonly string[]): void {
  roots = folders;
}

/** A tool or permission title: the agent's markdown, inline only, with workspace-relative paths. */
export function titleEl(tag: string, className: string, title: string): HTMLElement {
  const el = h(tag, `${className} markdown`, { title: escapeBidi(title) });
  setMarkdown(el, relativizePaths(escapeBidi(title), roots), true);
  return el;
}

/** The same title as plain text (labels, announcements). */
export function titleText(md: MarkdownModule, title: string): string {
  const text = relativizePaths(escapeBidi(title), roots);
  if (plainInline(text)) return text;
  const el = document.createElement('span');
  el.innerHTML = md.renderInlineMarkdown(text);
  return el.textContent ?? '';
}

/** `el`'s aria-label, made with a title's text (its markdown source until the renderer has loaded). */
export function labelWithTitle(el: HTMLElement, title: string, label: (title: string) => string): void {
  const text = relativizePaths(escapeBidi(title), roots);
  if (plainInline(text)) { el.setAttribute('aria-label', label(text)); return; }
  withMarkdown(md => el.setAttribute('aria-label', label(titleText(md, title))),
    () => el.setAttribute('aria-label', label(text)));
}
