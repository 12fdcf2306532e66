// Stick-to-bottom scrolling: a view that follows what is added at its end while the person is
// at the end, and stays put once they scrolled up to read. Two forms:
//
// - stickToBottom(track, slack): an attachment for a plain scrolling element (a terminal's
//   output, the protocol inspector's list). Any scroll decides: at the end (within `slack` px)
//   it follows, else not. It follows when track() changes, after the DOM has been updated.
// - BottomFollower: for the transcript, whose virtualised list moves the view by itself (a row
//   above measured shorter than its estimate, content that grew before the follow caught up).
//   There only the person unsticks: a move up while they are scrolling (wheel, touch, keys, a drag
//   of the scrollbar, a row taking the focus). While stuck, any other move away from the end is
//   undone at once; at the end again, by any means, it follows again. It follows growth of the
//   content through a ResizeObserver (once a frame, after layout, however many rows changed).
import type { Attachment } from 'svelte/attachments';

/** True when `el` is scrolled to within `slack` px of its end. */
export function atBottom(el: Element, slack: number): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight < slack;
}

/** Attachment: keeps the node scrolled to its end as track() changes, while the person is there. */
export function stickToBottom(track: () => unknown, slack: number): Attachment<HTMLElement> {
  return (node) => {
    let stuck = true;
    const onscroll = () => (stuck = atBottom(node, slack));
    node.addEventListener('scroll', onscroll);
    $effect(() => {
      track();
      if (stuck) node.scrollTop = node.scrollHeight;
    });
    return () => node.removeEventListener('scroll', onscroll);
  };
}

/** How long after a person's scrolling gesture a move of the view counts as theirs. */
const USER_MS = 600;
const SCROLL_KEYS = new Set(['ArrowUp', 'PageUp', 'Home', ' ']);

export class BottomFollower {
  /** True while the view follows new content (the person is at the end). */
  stuck = $state(true);

  readonly #slack: number;
  #el: HTMLElement | null = null;
  #lastTop = 0;
  #userUntil = 0;
  #pointerHeld = false;

  /** `slack`: how near the end, in px, counts as at the end. */
  constructor(slack: number) {
    this.#slack = slack;
  }

  /** Attachment for the scrolling element. */
  readonly scroller: Attachment<HTMLElement> = (el) => {
    this.#el = el;
    const user = () => this.userMoved();
    const onwheel = (e: WheelEvent) => e.deltaY < 0 && user();
    const onkeydown = (e: KeyboardEvent) => SCROLL_KEYS.has(e.key) && user();
    const onpointerdown = (e: PointerEvent) => {
      if (e.target !== el) return; // the scrollbar (a press in the content scrolls nothing)
      this.#pointerHeld = true;
      window.addEventListener('pointerup', () => (this.#pointerHeld = false), { once: true });
    };
    const onscroll = () => this.#onscroll(el);
    el.addEventListener('scroll', onscroll);
    el.addEventListener('wheel', onwheel, { passive: true });
    el.addEventListener('keydown', onkeydown);
    el.addEventListener('touchmove', user, { passive: true });
    el.addEventListener('pointerdown', onpointerdown);
    return () => {
      el.removeEventListener('scroll', onscroll);
      el.removeEventListener('wheel', onwheel);
      el.removeEventListener('keydown', onkeydown);
      el.removeEventListener('touchmove', user);
      el.removeEventListener('pointerdown', onpointerdown);
      if (this.#el === el) this.#el = null;
    };
  };

  /**
   * Attachment for the element holding the content (inside the scrolling one): while stuck, its
   * growth (new rows, streamed text, an expanded card) scrolls to the end. A plain scrollTop
   * write when the observer reports, after the frame's layout: reading the scroll height then
   * forces no extra layout.
   */
  readonly content: Attachment<HTMLElement> = (node) => {
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => {
      const el = this.#el;
      if (this.stuck && el && !atBottom(el, this.#slack)) this.#toEnd();
    });
    ro.observe(node);
    return () => ro.disconnect();
  };

  /** The person is moving the view (e.g. a row took the focus and the browser scrolls it into view). */
  userMoved(): void {
    this.#userUntil = performance.now() + USER_MS;
  }

  /** Scrolls to the end and follows again ("Jump to latest"). */
  jump(): void {
    this.stuck = true;
    this.#toEnd();
  }

  /** Puts the view back where the person had scrolled to (not following), e.g. when it is shown again. */
  restore(top: number): void {
    this.stuck = false;
    this.#lastTop = top;
    if (this.#el) this.#el.scrollTop = top;
  }

  #byUser(): boolean {
    return this.#pointerHeld || performance.now() < this.#userUntil;
  }

  #onscroll(el: HTMLElement): void {
    const top = el.scrollTop;
    if (atBottom(el, this.#slack)) this.stuck = true;
    else if (top < this.#lastTop - 1 && this.#byUser()) this.stuck = false;
    else if (this.stuck) this.#toEnd();
    this.#lastTop = el.scrollTop;
  }

  #toEnd(): void {
    if (this.#el) this.#el.scrollTop = this.#el.scrollHeight;
  }
}
