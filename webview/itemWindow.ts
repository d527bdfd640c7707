// The items of one long turn, rendered only where the user looks (@tanstack/virtual-core, as the
// list of turns in transcriptView.ts): a turn of 5,000 tool calls keeps a few dozen of them in the
// DOM. The turn's element keeps the height of all its items (measured once rendered, guessed
// before: src/common/itemWindow.ts); the items in view sit in normal flow inside a
// box moved down to the first one's place. The model (the turn's items) is the source of truth:
// an item updated while out of view is rendered from it when it comes into view.
// Layout is read once per change, never between writes: an item's element is handed to the
// virtualizer once (when it is new or replaced), which measures it with its ResizeObserver after the
// browser's own layout (before the frame is painted), and a later change of its size comes the same
// way; no render reads an element's size. While the turn streams, the transcript reads the scroll
// position and the window's place before it writes anything in a frame (`render(frame)`).
import { defaultRangeExtractor, elementScroll, observeElementOffset, observeElementRect, Virtualizer } from '@tanstack/virtual-core';
import type { Item } from '../src/common/transcript';
import { estimateItemHeight, ITEM_GAP, ITEM_OVERSCAN } from '../src/common/itemWindow';
import { h } from './dom';

export interface ItemWindowHooks {
  /** The turn's items, as they are now. */
  items(): readonly Item[];
  /** Renders an item (it is then in the DOM until `hide`). */
  show(item: Item): HTMLElement;
  /** The element of an item shown (it may have been replaced since `show`). */
  element(itemId: string): HTMLElement | undefined;
  /** An item left the DOM. */
  hide(itemId: string): void;
  /** Whether the transcript is at its end (it then stays there as items are measured). */
  atEnd(): boolean;
  /**
   * The live turn's window: asks the transcript to render it in its next frame (where layout is
   * read once, before anything is written) and returns true; false: render it on its own.
   */
  schedule?(): boolean;
  /** Whether the transcript keeps to its end (as read at its last frame): it scrolls there itself. */
  sticking?(): boolean;
}

/** The attribute that names an element's index for the virtualizer (the turn list uses data-index). */
const INDEX_ATTRIBUTE = 'data-item-index';

export class ItemWindow {
  /** The turn's item area: as tall as all its items. */
  readonly el = h('div', 'turn-items');
  /** The items in view, in order. */
  private readonly box = h('div', 'turn-items-window');
  private readonly shown = new Set<string>();
  private readonly estimates = new Map<string, number>();
  private readonly virtualizer: Virtualizer<HTMLElement, HTMLElement>;
  private readonly cleanup: () => void;
  private offsetChanged?: (offset: number, isScrolling: boolean) => void;
  /** The element of each item handed to the virtualizer (measured by its ResizeObserver from then on). */
  private readonly observed = new Map<string, HTMLElement>();
  /** The item area's offset in the scroller's content, as last read. */
  private margin: number | undefined;
  private queued = false;
  private observing = false;
  private rendering = false;

  constructor(private readonly scroller: HTMLElement, private readonly hooks: ItemWindowHooks, private readonly focused: () => string | undefined) {
    this.el.append(this.box);
    this.virtualizer = new Virtualizer<HTMLElement, HTMLElement>({
      count: hooks.items().length,
      getScrollElement: () => scroller,
      // Guessed once per item: the virtualizer asks again for every item whenever the count changes.
      estimateSize: i => {
        const item = hooks.items()[i];
        if (!item) return 0;
        let size = this.estimates.get(item.id);
        if (size === undefined) this.estimates.set(item.id, size = estimateItemHeight(item));
        return size;
      },
      getItemKey: i => hooks.items()[i]?.id ?? i,
      scrollToFn: elementScroll,
      observeElementRect,
      // Kept so that a scroll made here (to the end, while the turn streams) is known at once.
      observeElementOffset: (instance, cb) => { this.offsetChanged = cb; return observeElementOffset(instance, cb); },
      // Sizes come from the ResizeObserver's entries only; until its first entry an item keeps its
      // measured or guessed size (reading offsetHeight here would force a layout in mid-render).
      measureElement: (el, entry, instance) => {
        const box = entry?.borderBoxSize?.[0];
        if (box) return Math.round(box.blockSize);
        const index = instance.indexFromElement(el);
        return instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? instance.options.estimateSize(index);
      },
      indexAttribute: INDEX_ATTRIBUTE,
      overscan: ITEM_OVERSCAN,
      gap: ITEM_GAP,
      // An item holding the keyboard focus stays in the DOM (the focus never falls to the page).
      rangeExtractor: range => {
        const indexes = defaultRangeExtractor(range);
        const id = this.focused();
        const at = id && this.shown.has(id) ? hooks.items().findIndex(i => i.id === id) : -1;
        return at >= 0 && at < range.count && !indexes.includes(at) ? [...indexes, at].sort((a, b) => a - b) : indexes;
      },
      onChange: () => this.queue(),
    });
    // An item measured anew above the view moves the view by its change, unless the transcript keeps
    // to its end: it scrolls there itself once per frame (a scroll written here, between the
    // ResizeObserver's entries and the next render, would lay the page out once more).
    this.virtualizer.shouldAdjustScrollPositionOnItemSizeChange = (item, _delta, v) => !hooks.sticking?.()
      && (v.itemSizeCache.has(item.key) ? item.end <= (v.scrollOffset ?? 0) && v.scrollDirection !== 'backward' : item.start < (v.scrollOffset ?? 0));
    this.cleanup = this.virtualizer._didMount();
    // The scroller is observed (its size read) at the first render, not here: a turn that grows
    // long is rebuilt as a window while its many items are still in the DOM, and reading a size
    // then laid them all out once more (130 ms frames in bench/long-turn).
  }

  /** Items were added or changed: shown at the next render. */
  changed(): void {
    const count = this.hooks.items().length;
    if (count !== this.virtualizer.options.count) this.virtualizer.setOptions({ ...this.virtualizer.options, count });
    this.queue();
  }

  /** The scroller was scrolled from here (to the end): the window follows now, not at the scroll event. */
  scrolled(): void {
    this.offsetChanged?.(this.scroller.scrollTop, false);
  }

  /** How many items are in the DOM. */
  get size(): number { return this.shown.size; }

  dispose(): void {
    this.cleanup();
    for (const id of this.shown) this.hooks.hide(id);
    this.shown.clear();
    this.observed.clear();
  }

  private queue(): void {
    // Changes made by a render of the live turn (the range it moves to) are that render's own.
    if (this.queued || (this.rendering && this.hooks.schedule)) return;
    this.queued = true;
    // The live turn: rendered in the transcript's next frame (a render in the meantime drops the request).
    if (this.hooks.schedule?.()) return;
    // Skipped when a render ran in the meantime (the transcript's frame renders the live turn itself).
    queueMicrotask(() => { if (this.queued) this.render(); });
  }

  /** Reads where the item area sits in the scroller's content: call before writing in a frame. */
  readLayout(): void {
    if (this.el.isConnected) this.margin = Math.round(this.el.getBoundingClientRect().top - this.scroller.getBoundingClientRect().top + this.scroller.scrollTop);
  }

  /**
   * Puts the items in view into the DOM (in order) and takes the others out. `frame`: called from
   * the transcript's frame, which read the layout first (readLayout, and whether it is at its end)
   * and scrolls to the end itself; otherwise (a scroll, a size the ResizeObserver reported, where
   * the layout is fresh) both are read here first, before any write.
   */
  render(frame = false, end = false): void {
    this.queued = false;
    if (this.rendering || !this.el.isConnected) return;
    this.rendering = true;
    const stick = frame ? false : this.hooks.atEnd();
    try {
      const v = this.virtualizer;
      if (!frame || this.margin === undefined) this.readLayout();
      if (!this.observing) { this.observing = true; v._willUpdate(); }
      const margin = this.margin!;
      if (margin !== v.options.scrollMargin) v.setOptions({ ...v.options, scrollMargin: margin });
      // `end`: the transcript scrolls to its end after this render: the items shown are those at the
      // end (where the view will be), not those where it was; one render, one layout per frame. The
      // view is put where the items end (what is below them is a few pixels: the items shown reach
      // past the view's end by the overscan), unless the last item is shown already.
      if (end && !v.getVirtualIndexes().includes(v.options.count - 1)) {
        this.offsetChanged?.(Math.max(0, margin + v.getTotalSize() - (v.scrollRect?.height ?? 0)), false);
      }
      const items = this.hooks.items();
      const visible = v.getVirtualItems().filter(x => items[x.index]);
      const wanted = new Set(visible.map(x => items[x.index].id));
      for (const id of this.shown) {
        if (wanted.has(id)) continue;
        this.hooks.element(id)?.remove();
        this.shown.delete(id);
        this.observed.delete(id);
        this.hooks.hide(id);
      }
      let before: HTMLElement | null = null;
      for (let k = visible.length - 1; k >= 0; k--) {
        const item = items[visible[k].index];
        let el = this.shown.has(item.id) ? this.hooks.element(item.id) : undefined;
        if (!el) {
          el = this.hooks.show(item);
          this.shown.add(item.id);
        }
        el.setAttribute(INDEX_ATTRIBUTE, String(visible[k].index));
        if (el.nextElementSibling !== before || el.parentElement !== this.box) this.box.insertBefore(el, before);
        before = el;
      }
      this.box.style.transform = `translateY(${visible.length ? visible[0].start - margin : 0}px)`;
      // New and replaced elements only: the virtualizer observes them (no layout read here).
      for (const id of this.shown) {
        const el = this.hooks.element(id);
        if (el && this.observed.get(id) !== el) { this.observed.set(id, el); v.measureElement(el); }
      }
      this.el.style.height = `${v.getTotalSize()}px`;
      // Items measured taller than guessed must not push the end out of view while the turn streams.
      if (stick) { this.scroller.scrollTop = this.scroller.scrollHeight; this.scrolled(); }
    } finally {
      this.rendering = false;
    }
  }
}
