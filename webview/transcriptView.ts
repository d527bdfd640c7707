// The transcript, turn by turn, rendered only where the user looks. However long the conversation,
// the view holds a bounded DOM and a bounded set of items:
//  - the live turn (the last one) is always rendered, in the normal flow at the end: it streams;
//  - completed turns sit above it in a virtualized list (@tanstack/virtual-core): only those in
//    view (and a few around) are in the DOM, each measured once rendered (a ResizeObserver follows
//    later changes), the others are space of their measured (or estimated) height;
//  - completed turns older than the last few are collapsed to a one-line summary (prompt, the
//    answer's beginning, tool calls, how it ended) that opens on click; the view keeps the items of
//    a bounded number of turns and asks the host again for the others when they are opened;
//  - a turn of many items (the live one too) renders only the items in view (ItemWindow).
// Transcript operations are applied once per animation frame; a streamed message re-renders only
// itself, however many chunks arrived (see StreamedMarkdown).
import { defaultRangeExtractor, elementScroll, measureElement, observeElementOffset, observeElementRect, Virtualizer } from '@tanstack/virtual-core';
import * as l10n from '@vscode/l10n';
import type { Item, TranscriptOp } from '../src/common/transcript';
import { TurnList, turnChars, type TurnSummary } from '../src/common/turns';
import { windowed } from '../src/common/itemWindow';
import { isUrgent } from '../src/common/opQueue';
import { keepFocus } from './a11y';
import { h } from './dom';
import { afterLoad } from './firstLayout';
import { ItemWindow } from './itemWindow';
import type { StreamedMarkdown } from './streamedMarkdown';

export interface Rendered { el: HTMLElement; item: Item; stream?: StreamedMarkdown }

export interface TranscriptHooks {
  /** The element of one item. */
  build(item: Item): Rendered;
  /** An item was added at the end (before it is rendered): announcements. */
  added(item: Item): void;
  /** The view needs the items of a turn it does not hold. */
  loadTurn(turnId: string): void;
  /** How a turn ended, in words. */
  stopText(stopReason: string): string;
}

/** Below this distance from the end (px), the transcript counts as at its end and keeps to it. */
const AT_END_PX = 40;
const COLLAPSED_ESTIMATE = 52;
/** How long a frame may spend applying operations (ms); what is left waits for the next. */
const FRAME_BUDGET_MS = 12;
/**
 * After a frame's transcript work took t ms, the next one waits t ms at least (a permission request
 * or a question never waits): a burst of updates is drawn at a pace that leaves the main thread half
 * free (typing, scrolling, the next messages), and the items that come and go in between are never
 * built. While the work stays light, every frame is drawn.
 */
const WORK_SPACING = 1;

export class TranscriptView {
  private turns = new TurnList();
  /** Items in the DOM → their element. */
  private readonly rendered = new Map<string, Rendered>();
  /** Messages whose text changed since the last frame: re-rendered once at the next frame. */
  private readonly dirty = new Set<string>();
  private pending: TranscriptOp[] = [];
  private frame = 0;
  /** The earliest time (performance.now) of the next frame's work, unless something urgent comes (WORK_SPACING). */
  private nextWorkAt = 0;
  private urgent = false;
  /** The virtualized list of completed turns (every turn but the last). */
  private readonly list = h('div', 'turns');
  /** The live turn. */
  private live = h('div', 'turn live');
  /** Completed turns in the DOM: index → element. */
  private readonly mounted = new Map<number, HTMLElement>();
  private readonly virtualizer: Virtualizer<HTMLElement, HTMLElement>;
  /** Turns of many items in the DOM (the live one too): turn element → its window on its items. */
  private readonly windows = new Map<HTMLElement, ItemWindow>();
  /** Turns asked of the host and not yet back. */
  private readonly requested = new Set<string>();
  private listQueued = false;
  private rendering = false;
  /** The live turn's window asked to be rendered (a size measured, a scroll): done at the next frame. */
  private windowQueued = false;
  /** A frame's work is running (what it changes in the live turn is rendered at its end). */
  private working = false;
  /** Whether the transcript kept to its end at the last frame (it scrolls there itself). */
  private sticking = false;
  /** The height the user last saw (as of the last layout; 0 before it): "at the end" is judged with it. */
  shownHeight = 0;
  /**
   * The page was laid out (afterLoad): before, nothing here reads the layout (firstLayout.ts), the
   * virtualizer is not set up, the completed turns are not in the DOM and the view is at its end.
   */
  private laidOut = false;

  constructor(private readonly scroller: HTMLElement, private readonly hooks: TranscriptHooks) {
    scroller.replaceChildren(this.list, this.live);
    this.virtualizer = new Virtualizer<HTMLElement, HTMLElement>({
      count: 0,
      getScrollElement: () => scroller,
      estimateSize: i => this.estimate(i),
      getItemKey: i => this.turns.at(i)?.id ?? i,
      scrollToFn: elementScroll,
      observeElementRect,
      observeElementOffset,
      measureElement,
      // One turn beyond the view each way: a turn can be thousands of pixels tall.
      overscan: 1,
      // Where the list starts in the scroller: set with the first layout (firstLayout).
      scrollMargin: 0,
      // A turn holding the keyboard focus stays in the DOM (the focus never falls to the page).
      rangeExtractor: range => {
        const indexes = defaultRangeExtractor(range);
        const focused = this.focusedTurn();
        return focused >= 0 && focused < range.count && !indexes.includes(focused) ? [...indexes, focused].sort((a, b) => a - b) : indexes;
      },
      onChange: () => this.queueList(),
    });
    this.virtualizer._didMount();
    afterLoad(() => this.firstLayout());
  }

  /** The first layout: the virtualizer measures the scroller, the turns in view enter the DOM, the view goes to its end. */
  private firstLayout(): void {
    this.laidOut = true;
    this.shownHeight = this.scroller.clientHeight;
    this.virtualizer.setOptions({ ...this.virtualizer.options, scrollMargin: this.list.offsetTop });
    this.virtualizer._willUpdate();
    this.renderList();
    this.toEnd();
  }

  /** Scrolls to the end (at the first layout, when it has not happened yet). */
  toEnd(): void {
    if (this.laidOut) this.scroller.scrollTop = this.scroller.scrollHeight;
  }

  /** Everything anew: the turns the host keeps on disk (summaries) and the items it holds. */
  reset(archived: readonly TurnSummary[], items: readonly Item[]): void {
    this.pending = [];
    this.dirty.clear();
    this.rendered.clear();
    this.requested.clear();
    for (const el of this.mounted.values()) { el.remove(); this.dropWindow(el); }
    this.mounted.clear();
    this.dropWindow(this.live);
    this.turns = new TurnList();
    this.turns.reset(archived, items);
    this.live.remove();
    this.live = this.buildTurn(this.turns.length - 1, true);
    this.scroller.append(this.live);
    this.updateCount();
    this.renderList();
    this.toEnd();
  }

  /** The items of a turn, fetched again from the host. */
  loaded(turnId: string, items: readonly Item[]): void {
    this.requested.delete(turnId);
    const index = this.turns.load(turnId, items);
    if (index >= 0 && this.mounted.has(index)) {
      this.rebuildTurn(index);
      this.renderList();
    }
  }

  /** The text of an item, as read (paragraphs apart) when it is rendered. */
  textOf(itemId: string): string {
    const r = this.rendered.get(itemId);
    if (r) return readableText(r.el);
    const item = this.turns.at(this.turns.indexOfItem(itemId))?.items?.find(i => i.id === itemId);
    return item && 'text' in item ? item.text : '';
  }

  /** How many items are in the DOM (the bench and tests read it). */
  get renderedCount(): number { return this.rendered.size; }

  /** Queues transcript operations: applied together at the next frame. */
  push(ops: readonly TranscriptOp[]): void {
    this.pending.push(...ops);
    this.urgent ||= ops.some(isUrgent);
    this.frame ||= requestAnimationFrame(() => this.flush());
  }

  isAtEnd(): boolean {
    if (!this.laidOut) return true;
    return this.scroller.scrollHeight - this.scroller.scrollTop - this.shownHeight < AT_END_PX;
  }

  private flush(): void {
    this.frame = 0;
    const begun = performance.now();
    if (!this.urgent && begun < this.nextWorkAt) {
      this.frame = requestAnimationFrame(() => this.flush());
      // Operations wait; the live turn's window follows a scroll or a measured size at once.
      if (this.windowQueued) this.renderLive(this.isAtEnd(), true);
      return;
    }
    this.urgent = false;
    this.working = true;
    try { this.work(); } finally {
      this.working = false;
      const end = performance.now();
      this.nextWorkAt = end + WORK_SPACING * (end - begun);
      // The window asked again after it was rendered (the scroll to the end moved its range).
      if (this.windowQueued) this.frame ||= requestAnimationFrame(() => this.flush());
    }
  }

  private work(): void {
    // Layout is read first, before this frame writes anything (no layout forced in between).
    const stick = this.isAtEnd();
    this.windows.get(this.live)?.readLayout();
    // A frame applies what fits in its budget; the rest waits for the next frame (in order).
    const start = performance.now();
    const ops = this.pending;
    let done = 0;
    let newTurns = false;
    // Something new below a streamed message: it is finished, shown in full at the end of this
    // frame (once, however many operations the frame holds).
    let finished = false;
    for (const op of ops) {
      if (done++ % 64 === 63 && performance.now() - start > FRAME_BUDGET_MS) { done--; break; }
      if (op.op === 'append') {
        this.turns.apply(op);
        const r = this.rendered.get(op.id);
        if (r?.stream) { r.stream.append(op.text); this.dirty.add(op.id); }
        continue;
      }
      finished ||= this.dirty.size > 0;
      if (op.op === 'add') this.hooks.added(op.item);
      const change = this.turns.apply(op);
      if (!change) continue;
      if (change.added) { this.startTurn(); newTurns = true; }
      else if (op.op === 'add' && change.index === this.turns.length - 1) this.addLive(op.item);
      else if (op.op === 'replace') this.replaceItem(op.item);
    }
    this.pending = done < ops.length ? ops.slice(done) : [];
    if (this.pending.length) this.frame ||= requestAnimationFrame(() => this.flush());
    this.renderDirty(finished);
    if (this.dirty.size) this.frame ||= requestAnimationFrame(() => this.flush());
    if (newTurns) {
      // Turns that grew old collapse; the view forgets the items of turns long out of view.
      this.turns.evict(new Set(this.mounted.keys()));
      for (const i of this.mounted.keys()) if (this.turns.collapsed(i) !== this.mounted.get(i)!.classList.contains('collapsed')) this.rebuildTurn(i);
      this.renderList();
    }
    this.renderLive(stick, false);
  }

  /**
   * The live turn's window, then the scroll to the end (`stick`): after all of this frame's writes,
   * and nothing written after it (one layout per frame). The window shows the items at the end
   * (where the view goes), and its size changes measured after this frame are rendered at the next.
   */
  private renderLive(stick: boolean, readFirst: boolean): void {
    const w = this.windows.get(this.live);
    if (readFirst) w?.readLayout();
    this.windowQueued = false;
    this.sticking = stick;
    w?.render(true, stick);
    if (stick) { this.scroller.scrollTop = this.scroller.scrollHeight; w?.scrolled(); }
  }

  /** An item added to the live turn: rendered at once, or by the turn's window once it has many. */
  private addLive(item: Item): void {
    const w = this.windows.get(this.live);
    if (w) { w.changed(); return; }
    const items = this.turns.at(this.turns.length - 1)?.items ?? [];
    if (!windowed(items.length)) { this.appendItem(this.live, item); return; }
    // The turn grew long: from now on only the items in view are in the DOM.
    for (const i of items) { this.rendered.delete(i.id); this.dirty.delete(i.id); }
    const old = this.live;
    keepFocus(old, () => { this.live = this.buildTurn(this.turns.length - 1, true); old.replaceWith(this.live); return this.live; }, () => this.scroller);
  }

  private dropWindow(turnEl: HTMLElement): void {
    this.windows.get(turnEl)?.dispose();
    this.windows.delete(turnEl);
  }

  /** The item holding the keyboard focus, if any. */
  private focusedItem(): string | undefined {
    const active = document.activeElement;
    if (!active || !this.scroller.contains(active)) return undefined;
    for (const [id, r] of this.rendered) if (r.el.contains(active)) return id;
    return undefined;
  }

  private renderDirty(force: boolean): void {
    for (const id of this.dirty) {
      if (this.rendered.get(id)?.stream?.render(force) !== false) this.dirty.delete(id);
    }
  }

  /** A prompt started a new turn: the live one joins the list of completed turns. */
  private startTurn(): void {
    const done = this.turns.length - 2;
    const el = this.live;
    if (done < 0) {
      el.remove();
      this.live = this.buildTurn(0, true);
      this.scroller.append(this.live);
      return;
    }
    el.classList.remove('live');
    el.dataset.index = String(done);
    this.list.append(el);
    this.mounted.set(done, el);
    this.live = this.buildTurn(this.turns.length - 1, true);
    this.scroller.append(this.live);
    this.updateCount();
  }

  private updateCount(): void {
    this.virtualizer.setOptions({ ...this.virtualizer.options, count: Math.max(0, this.turns.length - 1) });
    if (this.laidOut) this.virtualizer._willUpdate();
  }

  private estimate(index: number): number {
    if (this.turns.collapsed(index)) return COLLAPSED_ESTIMATE;
    const items = this.turns.at(index)?.items;
    return items ? Math.min(20_000, 60 + items.length * 40 + Math.round(turnChars(items) / 3)) : COLLAPSED_ESTIMATE;
  }

  private queueList(): void {
    if (this.listQueued) return;
    this.listQueued = true;
    if (this.rendering) return; // picked up by the running render
    queueMicrotask(() => this.renderList());
  }

  /** Puts the completed turns in view into the DOM (in order), and takes the others out. */
  private renderList(): void {
    if (!this.laidOut) return;
    if (this.rendering) { this.listQueued = true; return; }
    this.rendering = true;
    try {
      for (let pass = 0; pass < 3; pass++) {
        this.listQueued = false;
        const stick = this.isAtEnd();
        const v = this.virtualizer;
        const visible = v.getVirtualItems();
        const wanted = new Set(visible.map(i => i.index));
        for (const [index, el] of this.mounted) if (!wanted.has(index)) this.unmount(index, el);
        let before: HTMLElement | null = null;
        for (let k = visible.length - 1; k >= 0; k--) {
          const { index, start } = visible[k];
          let el = this.mounted.get(index);
          if (!el) {
            el = this.buildTurn(index, false);
            this.mounted.set(index, el);
          }
          if (el.nextElementSibling !== before || el.parentElement !== this.list) this.list.insertBefore(el, before);
          el.style.transform = `translateY(${start - v.options.scrollMargin}px)`;
          before = el;
        }
        for (const el of this.mounted.values()) v.measureElement(el);
        this.list.style.height = `${v.getTotalSize() - v.options.scrollMargin}px`;
        if (stick) this.scroller.scrollTop = this.scroller.scrollHeight;
        if (!this.listQueued) break;
      }
    } finally {
      this.rendering = false;
    }
    if (this.listQueued) { this.listQueued = false; this.queueList(); }
  }

  private unmount(index: number, el: HTMLElement): void {
    el.remove();
    this.dropWindow(el);
    this.mounted.delete(index);
    for (const item of this.turns.at(index)?.items ?? []) { this.rendered.delete(item.id); this.dirty.delete(item.id); }
  }

  /** The index of the completed turn that holds the keyboard focus, or -1. */
  private focusedTurn(): number {
    const active = document.activeElement;
    if (!active || !this.list.contains(active)) return -1;
    for (const [index, el] of this.mounted) if (el.contains(active)) return index;
    return -1;
  }

  private buildTurn(index: number, live: boolean): HTMLElement {
    const turn = this.turns.at(index);
    const el = h('div', live ? 'turn live' : 'turn');
    if (!live) el.dataset.index = String(index);
    if (!turn) return el;
    if (!live && this.turns.collapsed(index)) {
      el.classList.add('collapsed');
      el.append(this.summaryButton(index, false));
      return el;
    }
    // A turn the user opened can be collapsed again.
    if (!live && turn.open) el.append(this.summaryButton(index, true));
    if (!turn.items) {
      el.append(h('div', 'turn-loading', { role: 'status' }, l10n.t('Loading…')));
      if (!this.requested.has(turn.id)) { this.requested.add(turn.id); this.hooks.loadTurn(turn.id); }
      return el;
    }
    if (windowed(turn.items.length)) {
      const items = turn.items;
      const w = new ItemWindow(this.scroller, {
        items: () => this.turns.at(index)?.items ?? items,
        show: item => { const r = this.hooks.build(item); this.rendered.set(item.id, r); return r.el; },
        element: id => this.rendered.get(id)?.el,
        hide: id => { this.rendered.delete(id); this.dirty.delete(id); },
        atEnd: () => this.isAtEnd(),
        schedule: () => {
          if (el !== this.live) return false;
          this.windowQueued = true;
          // Within a frame's work, rendered at its end.
          if (!this.working) this.frame ||= requestAnimationFrame(() => this.flush());
          return true;
        },
        sticking: () => el === this.live && this.sticking,
      }, () => this.focusedItem());
      this.windows.set(el, w);
      el.append(w.el);
      w.changed();
      return el;
    }
    for (const item of turn.items) this.appendItem(el, item);
    if (!turn.items.length) el.append(h('div', 'turn-loading', { role: 'note' }, l10n.t('This turn is no longer available.')));
    return el;
  }

  /** The line that stands for a collapsed turn (and heads a turn the user opened): a disclosure button. */
  private summaryButton(index: number, open: boolean): HTMLElement {
    const s = this.turns.summary(index);
    const b = h('button', 'turn-summary', { type: 'button', 'aria-expanded': String(open) });
    b.append(h('span', `codicon codicon-chevron-${open ? 'down' : 'right'}`, { 'aria-hidden': 'true' }));
    const text = h('span', 'turn-summary-text');
    if (s?.prompt) text.append(h('span', 'turn-prompt', {}, s.prompt));
    const details: string[] = [];
    if (s?.tools) details.push(s.tools === 1 ? l10n.t('1 tool call') : l10n.t('{0} tool calls', s.tools));
    if (s?.stopReason) details.push(this.hooks.stopText(s.stopReason));
    if (s?.answer) text.append(h('span', 'turn-answer', {}, s.answer));
    if (details.length) text.append(h('span', 'turn-meta', {}, details.join(' · ')));
    b.append(text);
    b.title = open ? l10n.t('Collapse this turn') : l10n.t('Show this turn');
    b.addEventListener('click', () => {
      this.turns.toggle(index);
      this.rebuildTurn(index);
      this.renderList();
    });
    return b;
  }

  /** Rebuilds a completed turn in the DOM (collapsed or opened, items loaded or dropped). */
  private rebuildTurn(index: number): void {
    const old = this.mounted.get(index);
    if (!old) return;
    for (const item of this.turns.at(index)?.items ?? []) { this.rendered.delete(item.id); this.dirty.delete(item.id); }
    this.dropWindow(old);
    keepFocus(old, () => {
      const el = this.buildTurn(index, false);
      el.style.transform = old.style.transform;
      old.replaceWith(el);
      this.mounted.set(index, el);
      return el;
    });
  }

  private appendItem(turnEl: HTMLElement, item: Item): void {
    const r = this.hooks.build(item);
    this.rendered.set(item.id, r);
    turnEl.append(r.el);
  }

  private replaceItem(item: Item): void {
    const old = this.rendered.get(item.id);
    if (!old) return;
    const r = this.hooks.build(item);
    // Keep what the user opened (raw input disclosure, thoughts) open across updates.
    old.el.querySelectorAll('details[open]').forEach(d => r.el.querySelector(`details[data-k="${(d as HTMLElement).dataset.k}"]`)?.setAttribute('open', ''));
    const index = old.el.getAttribute('data-item-index');
    if (index !== null) r.el.setAttribute('data-item-index', index);
    keepFocus(old.el, () => { old.el.replaceWith(r.el); return r.el; }, () => this.scroller);
    this.rendered.set(item.id, r);
    // In a long turn: measured again (its height may have changed).
    const turnEl = r.el.closest<HTMLElement>('.turn');
    if (turnEl) this.windows.get(turnEl)?.changed();
  }
}

/** Blocks whose text is read apart from what surrounds it (as innerText would, without laying the page out). */
const BLOCKS = new Set(['P', 'DIV', 'LI', 'PRE', 'BLOCKQUOTE', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'TR', 'TABLE', 'UL', 'OL', 'ARTICLE', 'SECTION', 'DETAILS', 'SUMMARY', 'HR']);

/**
 * An element's text as a screen reader should hear it: blocks and line breaks apart ("a." and "b"
 * of two list items never read as "a.b"). Unlike innerText it reads no layout: the announcer calls
 * it between frames, where innerText laid out the whole page once more (40 ms in bench/long-turn).
 */
export function readableText(el: Element): string {
  let out = '';
  const walk = (node: Node): void => {
    for (let c = node.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === Node.TEXT_NODE) { out += c.nodeValue; continue; }
      if (c.nodeType !== Node.ELEMENT_NODE) continue;
      const tag = (c as Element).tagName;
      if (tag === 'BR') { out += '\n'; continue; }
      if (tag === 'SCRIPT' || tag === 'STYLE' || (c as HTMLElement).hidden) continue;
      const block = BLOCKS.has(tag);
      if (block && out && !out.endsWith('\n')) out += '\n';
      walk(c);
      if (block && out && !out.endsWith('\n')) out += '\n';
    }
  };
  walk(el);
  return out.replace(/\n{2,}/g, '\n').trim();
}
