// Screen reader and keyboard help for the chat view.
// - announce(): one polite announcement per finished message or request. The transcript itself is
//   not a live region (it would read every streamed chunk); this hidden region is.
// - keepFocus(): parts of the view are rebuilt when their data changes (a tool card updates, the
//   changed-files list or the tab strip is redrawn). The control that had the keyboard focus gets it
//   back in the rebuilt part, so the focus never falls to the page while the user works.

import * as l10n from '@vscode/l10n';

const MAX_ANNOUNCEMENT = 1500;
const KEEP_ANNOUNCEMENTS = 5;

export type AnnouncementKind = 'message' | 'permission' | 'turn' | 'status';

/** Says `text` once through the polite live region `#announcer`. */
export function announce(text: string, kind: AnnouncementKind): void {
  const region = document.getElementById('announcer');
  const clean = text.replace(/\s+/g, ' ').trim();
  if (!region || !clean) return;
  const entry = document.createElement('p');
  entry.dataset.kind = kind;
  entry.textContent = clean.length > MAX_ANNOUNCEMENT ? l10n.t('{0}… (continues in the conversation)', clean.slice(0, MAX_ANNOUNCEMENT)) : clean;
  region.append(entry);
  // Old entries go (removals are not read); a few stay so a quick succession is not cut short.
  while (region.childElementCount > KEEP_ANNOUNCEMENTS) region.firstElementChild!.remove();
}

const FOCUSABLE = 'button, a[href], summary, select, textarea, input, [tabindex]:not([tabindex="-1"])';

/** What identifies a control across a rebuild: its kind, its name and which of the same it is. */
function focusKey(el: Element, root: Element): { key: string; nth: number; index: number } {
  const key = keyOf(el);
  const all = [...root.querySelectorAll(FOCUSABLE)];
  return { key, nth: all.filter(e => keyOf(e) === key).indexOf(el), index: all.indexOf(el) };
}

function keyOf(el: Element): string {
  return `${el.tagName}|${el.getAttribute('role') ?? ''}|${el.getAttribute('aria-label') ?? el.textContent?.trim() ?? ''}`;
}

/**
 * Runs `rebuild`, which replaces the content of `root` (or returns the element that replaces it),
 * and puts the focus back on the matching control if it was inside. `fallback` gets the focus when
 * the control is gone and nothing else in the rebuilt part can take it.
 */
export function keepFocus(root: HTMLElement, rebuild: () => HTMLElement | void, fallback?: () => HTMLElement | undefined): void {
  const active = document.activeElement;
  const had = active instanceof HTMLElement && root.contains(active) ? focusKey(active, root) : undefined;
  const wasRoot = active === root;
  const next = rebuild() ?? root;
  if (!had && !wasRoot) return;
  if (document.activeElement && document.activeElement !== document.body && next.contains(document.activeElement)) return;
  if (wasRoot) { next.focus({ preventScroll: true }); return; }
  const all = [...next.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(e => !e.closest('[hidden]'));
  const same = all.filter(e => keyOf(e) === had!.key);
  const target = same[Math.min(had!.nth, same.length - 1)] ?? all[Math.min(had!.index, all.length - 1)] ?? fallback?.();
  target?.focus({ preventScroll: true });
}
