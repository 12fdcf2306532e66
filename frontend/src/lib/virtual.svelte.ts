// A windowed (virtualised) list for Svelte 5: only the rows near the viewport are in the DOM.
//
// The windowing itself is @tanstack/virtual-core, the framework-agnostic core of TanStack Virtual
// (well kept and widely used): measured row heights cached by key, binary-searched visible range,
// scroll anchoring when a row above the viewport changes height. (Not its end anchoring, anchorTo:
// 'end': that rebuilds every row's position on each append, O(rows) per streamed entry; the
// caller follows the bottom itself, cheaply, see Transcript.svelte.) Its own Svelte adapter
// is built on svelte/store; this is the same wiring (setOptions + _willUpdate on each change,
// _didMount on mount, onChange -> re-render) as a small runes class instead.
//
// What this adds on top:
// - Pinned rows: indexes the caller always wants rendered whatever the scroll position (the
//   streaming last row, an open permission prompt, the row holding the keyboard focus).
// - Small lists (up to renderAllUpTo rows) are rendered whole, so short transcripts behave like a
//   plain page: Tab and assistive technology reach every row. Not while renderAll() says no: a
//   streaming transcript is windowed even when short, since rows that arrive many a frame would
//   each be mounted and laid out out of sight (measured: the frames of a flood's first 100
//   entries were its longest).
// - Rows added in front (the earlier parts of a saved session, which opens with its end) do not
//   move the view of someone who scrolled up: the row at the top of the view stays where it was.
//   Noticed by the key of row 0 changing, so appends cost nothing; the library's own anchoring
//   (anchorTo: 'end') is the O(rows) one above.
// - No layout (a zero-height viewport, or a DOM without layout such as the unit tests'): the
//   library renders nothing then; we render the last renderAllUpTo rows (and the pinned ones).
//
// Every option callback runs untracked: the caller's state read there (row keys, sizes) must not
// become a dependency of whatever renders the rows. Call update() when the rows change instead.
import {
  defaultRangeExtractor,
  elementScroll,
  observeElementOffset,
  observeElementRect,
  Virtualizer,
  type Range,
} from '@tanstack/virtual-core';
import { untrack } from 'svelte';

export interface VirtualListOptions {
  getScrollElement: () => HTMLElement | null | undefined;
  /** A stable key per row (its size is cached under it). */
  getKey: (index: number) => string;
  /** The height of a row not measured yet, in px. */
  estimateSize: (index: number) => number;
  /** Rows rendered whatever the scroll position. */
  pinned?: () => readonly number[];
  /**
   * True while the caller keeps the view at the end of the list (it scrolls there itself after
   * each change): the rows are then picked from the end, not from the scroll position, which
   * reaches the end only after the new rows were laid out. Without this, each append would
   * render the rows around the old position first and those at the end a frame later.
   */
  follow?: () => boolean;
  /** Lists of up to this many rows are rendered whole (default 100)... */
  renderAllUpTo?: number;
  /** ...while this says so (default: always); read at each update(). */
  renderAll?: () => boolean;
  /** Rows rendered beyond each edge of the viewport (default 4). */
  overscan?: number;
  gap?: number;
  paddingStart?: number;
  paddingEnd?: number;
}

/** One rendered row: its index, key and offset from the top of the list, in px. */
export interface Row {
  index: number;
  key: string;
  start: number;
}

/**
 * The indexes to render, ascending and unique: every row of a list of up to renderAllUpTo rows;
 * otherwise the visible rows (with their overscan), or the last renderAllUpTo rows when there is
 * no layout (visible === null), plus the pinned rows.
 */
export function pickIndexes(
  count: number,
  visible: readonly number[] | null,
  pinned: readonly number[],
  renderAllUpTo: number,
): number[] {
  if (count <= renderAllUpTo) return Array.from({ length: count }, (_, i) => i);
  const set = new Set<number>();
  if (visible) for (const i of visible) set.add(i);
  else for (let i = count - renderAllUpTo; i < count; i++) set.add(i);
  for (const i of pinned) if (i >= 0 && i < count) set.add(i);
  return [...set].sort((a, b) => a - b);
}

/**
 * A row's height: from the ResizeObserver entry when there is one. Without one (a row just
 * mounted) it reads no layout, unlike the library's default: during a stream rows mount once per
 * event, several times a frame, and a synchronous read would force a layout each time. The
 * observer reports the real height after the frame's layout, before it is painted.
 */
function measureRow(el: HTMLElement, entry: ResizeObserverEntry | undefined, v: Virtualizer<HTMLElement, HTMLElement>): number {
  const box = entry?.borderBoxSize?.[0];
  if (box) return Math.round(box.blockSize);
  if (entry) return Math.round(el.getBoundingClientRect().height);
  const index = v.indexFromElement(el);
  return v.itemSizeCache.get(v.options.getItemKey(index)) ?? v.options.estimateSize(index);
}

export class VirtualList {
  readonly #o: VirtualListOptions;
  readonly #v: Virtualizer<HTMLElement, HTMLElement>;
  #version = $state(0);
  #count = 0;
  #mounted = false;
  #frame = false;
  /** The key of row 0 at the last update(): another one there means rows came in front. */
  #firstKey: string | null = null;

  constructor(options: VirtualListOptions) {
    this.#o = options;
    this.#v = new Virtualizer(this.#options());
  }

  // Created once: the library rebuilds every row's position (O(rows)) whenever the identity of
  // getItemKey changes, so a new function per update() would cost that on every streamed event.
  readonly #getScrollElement = () => untrack(() => this.#o.getScrollElement() ?? null);
  readonly #getItemKey = (i: number) => untrack(() => this.#o.getKey(i));
  readonly #estimateSize = (i: number) => untrack(() => this.#o.estimateSize(i));

  #options() {
    const o = this.#o;
    const count = this.#count;
    const all = o.renderAllUpTo ?? 100;
    return {
      count,
      getScrollElement: this.#getScrollElement,
      getItemKey: this.#getItemKey,
      estimateSize: this.#estimateSize,
      // A new function per update(): the library memoises the range on this function's identity,
      // so a change of the pinned rows alone still recomputes it.
      rangeExtractor: (range: Range) =>
        pickIndexes(
          count,
          untrack(() => o.follow?.() ?? false) ? this.#tail(range) : defaultRangeExtractor(range),
          untrack(() => o.pinned?.() ?? []),
          untrack(() => o.renderAll?.() ?? true) ? all : 0,
        ),
      scrollToFn: elementScroll,
      observeElementRect,
      observeElementOffset,
      measureElement: measureRow,
      onChange: () => this.#bump(),
      overscan: o.overscan ?? 4,
      gap: o.gap ?? 0,
      paddingStart: o.paddingStart ?? 0,
      paddingEnd: o.paddingEnd ?? 0,
    };
  }

  /**
   * The rows that fill the viewport when it is scrolled to the end (by the measured or estimated
   * heights), with the overscan above them; the default range while the viewport has no height.
   */
  #tail(range: Range): number[] {
    const v = this.#v;
    const height = v.scrollRect?.height ?? 0;
    const n = range.count;
    if (height <= 0 || n === 0) return defaultRangeExtractor(range);
    const items = v.measurementsCache;
    const top = (items[n - 1]?.end ?? 0) - height;
    let first = n - 1;
    while (first > 0 && (items[first - 1]?.end ?? 0) > top) first--;
    // One row of overscan, not range.overscan: while following, the rows are new at every
    // append, and each row above the view is mounted and laid out for nothing until the
    // person scrolls up (which stops the following).
    const out: number[] = [];
    for (let i = Math.max(0, first - Math.min(1, range.overscan)); i < n; i++) out.push(i);
    return out;
  }

  // Untracked: bumps happen inside effects (mount, a row's measuring attachment), which must not
  // come to depend on the version they bump.
  #bump(): void {
    untrack(() => this.#version++);
  }

  /**
   * The rows changed (count, keys, pinned rows): call before the DOM update ($effect.pre). The
   * rows are recomputed at once; the library's after-commit step (_willUpdate, which may read the
   * scroll height) runs once per animation frame, before it is painted, however many updates the
   * frame had: a read per update would force a layout per streamed event.
   */
  update(count: number): void {
    const anchor = this.#anchor(count);
    this.#count = count;
    this.#v.setOptions(this.#options());
    if (anchor) this.#keep(anchor);
    this.#bump();
    if (this.#mounted && !this.#frame) {
      this.#frame = true;
      const run = () => {
        this.#frame = false;
        if (this.#mounted) this.#v._willUpdate();
      };
      if (typeof requestAnimationFrame === 'function') requestAnimationFrame(run);
      else queueMicrotask(run);
    }
  }

  /**
   * When rows came in front of the list (an earlier part of a saved session) and the caller is
   * not following the end: the row at the top of the view and how far the view is into it, so
   * that the same content stays in view (#keep). Null otherwise; appends cost nothing here.
   */
  #anchor(count: number): { key: string; into: number } | null {
    const first = count > 0 ? this.#getItemKey(0) : null;
    const before = this.#firstKey;
    this.#firstKey = first;
    if (before === null || first === before || !this.#mounted) return null;
    if (untrack(() => this.#o.follow?.() ?? false)) return null;
    const offset = this.#v.scrollOffset ?? 0;
    const item = this.#v.getVirtualItemForOffset(offset);
    return item ? { key: String(item.key), into: offset - item.start } : null;
  }

  /**
   * Scrolls to where the anchor row is now (the rows in front pushed it down). The range is
   * picked there at once; the element is scrolled after the DOM update (a microtask), when the
   * list has its new height: a scroll position beyond the old height would be clamped.
   */
  #keep(anchor: { key: string; into: number }): void {
    const v = this.#v;
    v.getTotalSize(); // brings measurementsCache up to date with the new rows
    let i = 0;
    while (i < this.#count && this.#getItemKey(i) !== anchor.key) i++;
    const item = v.measurementsCache[i];
    if (!item) return;
    const target = Math.max(0, item.start + anchor.into);
    if (Math.abs(target - (v.scrollOffset ?? 0)) < 1) return;
    v.scrollOffset = target;
    queueMicrotask(() => {
      const el = this.#getScrollElement();
      if (el) el.scrollTop = target;
    });
  }

  /** Starts observing the scroll element (call from an $effect once it is in the DOM). */
  mount(): () => void {
    const cleanup = this.#v._didMount();
    this.#mounted = true;
    this.#v._willUpdate();
    this.#bump();
    return () => {
      this.#mounted = false;
      cleanup();
    };
  }

  /** The rows to render, in order. */
  get rows(): Row[] {
    void this.#version;
    const items = this.#v.getVirtualItems();
    if (items.length > 0 || this.#count === 0) {
      return items.map((it) => ({ index: it.index, key: String(it.key), start: it.start }));
    }
    if (!this.#mounted) return [];
    const pinned = untrack(() => this.#o.pinned?.() ?? []);
    return pickIndexes(this.#count, null, pinned, this.#o.renderAllUpTo ?? 100).map((index) => ({
      index,
      key: untrack(() => this.#o.getKey(index)),
      start: 0,
    }));
  }

  /** The height of the whole list (rows, gaps and paddings), in px. */
  get totalSize(): number {
    void this.#version;
    return this.#v.getTotalSize();
  }

  /** Attachment for each rendered row (which needs data-index): measures it, now and on resize. */
  readonly measure = (node: HTMLElement): void => {
    this.#v.measureElement(node);
  };

  scrollToEnd(): void {
    this.#v.scrollToEnd();
  }

  scrollToIndex(index: number, align: 'start' | 'center' | 'end' | 'auto' = 'auto'): void {
    this.#v.scrollToIndex(index, { align });
  }
}
