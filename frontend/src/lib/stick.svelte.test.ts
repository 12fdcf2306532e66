import { cleanup, render } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { createAttachmentKey } from 'svelte/attachments';
import { afterEach, describe, expect, it, vi } from 'vitest';
import AttachHost from '../test/AttachHost.svelte';
import { atBottom, BottomFollower, stickToBottom } from './stick.svelte';

afterEach(() => cleanup());

/** A scrolling element 100px high over `height()` px of content (the test DOM has no layout). */
function sized(el: HTMLElement, height: () => number): HTMLElement {
  Object.defineProperty(el, 'scrollHeight', { get: height, configurable: true });
  Object.defineProperty(el, 'clientHeight', { get: () => 100, configurable: true });
  return el;
}

function scrollTo(el: HTMLElement, top: number) {
  el.scrollTop = top;
  el.dispatchEvent(new Event('scroll'));
}

describe('atBottom', () => {
  it('is true within the slack of the end', () => {
    const el = sized(document.createElement('div'), () => 500);
    el.scrollTop = 390;
    expect(atBottom(el, 24)).toBe(true);
    el.scrollTop = 370;
    expect(atBottom(el, 24)).toBe(false);
  });
});

describe('stickToBottom', () => {
  it('follows what is added while at the end, not after the person scrolled up, and again once back', () => {
    const feed = $state({ lines: 1 });
    let height = 500;
    const { container } = render(AttachHost, {
      props: {
        attrs: {
          [createAttachmentKey()]: (node: HTMLElement) => {
            sized(node, () => height);
            return stickToBottom(() => feed.lines, 24)(node);
          },
        },
      },
    });
    const el = container.firstElementChild as HTMLElement;
    expect(el.scrollTop).toBe(500); // starts at the end

    height = 800;
    feed.lines = 2;
    flushSync();
    expect(el.scrollTop).toBe(800);

    scrollTo(el, 300); // the person reads further up
    height = 900;
    feed.lines = 3;
    flushSync();
    expect(el.scrollTop).toBe(300);

    scrollTo(el, 790); // back at the end (within the slack)
    height = 1000;
    feed.lines = 4;
    flushSync();
    expect(el.scrollTop).toBe(1000);
  });
});

describe('BottomFollower', () => {
  function follower() {
    const f = new BottomFollower(48);
    let height = 1000;
    const el = sized(document.body.appendChild(document.createElement('div')), () => height);
    const detach = f.scroller(el) as () => void;
    return { f, el, detach, grow: (h: number) => (height = h) };
  }

  it('undoes a move up that is not the person\'s while stuck', () => {
    const { f, el, detach } = follower();
    scrollTo(el, 900);
    scrollTo(el, 500); // the list moved the view (a row above measured shorter)
    expect(f.stuck).toBe(true);
    expect(el.scrollTop).toBe(1000);
    detach();
  });

  it('unsticks on a move up by the person (wheel), and follows again at the end', () => {
    const { f, el, detach } = follower();
    scrollTo(el, 900);
    el.dispatchEvent(new WheelEvent('wheel', { deltaY: -100 }));
    scrollTo(el, 500);
    expect(f.stuck).toBe(false);
    scrollTo(el, 400); // further moves leave it alone
    expect(el.scrollTop).toBe(400);
    scrollTo(el, 880);
    expect(f.stuck).toBe(true);
    detach();
  });

  it('counts keys, a held scrollbar and a row taking the focus as the person, for a moment', () => {
    let now = 10_000;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => now);
    const { f, el, detach } = follower();
    const jump = () => {
      f.jump();
      el.dispatchEvent(new Event('scroll')); // the browser reports the program's scroll too
      now += 1_000; // the last gesture is long past
    };
    try {
      scrollTo(el, 900);
      el.dispatchEvent(new KeyboardEvent('keydown', { key: 'PageUp', bubbles: true }));
      scrollTo(el, 600);
      expect(f.stuck).toBe(false);

      jump();
      expect(f.stuck).toBe(true);
      expect(el.scrollTop).toBe(1000);
      el.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true })); // on the scroller itself: its scrollbar
      scrollTo(el, 700);
      expect(f.stuck).toBe(false);
      window.dispatchEvent(new PointerEvent('pointerup'));

      jump();
      f.userMoved();
      scrollTo(el, 500);
      expect(f.stuck).toBe(false);

      jump();
      f.userMoved();
      now += 700; // too late: no longer the person's
      scrollTo(el, 500);
      expect(f.stuck).toBe(true);
    } finally {
      clock.mockRestore();
      detach();
    }
  });

  it('takes a key that does not scroll up as no gesture: the move is undone while stuck', () => {
    const { f, el, detach } = follower();
    scrollTo(el, 900);
    el.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
    scrollTo(el, 600);
    expect(f.stuck).toBe(true);
    expect(el.scrollTop).toBe(1000);
    detach();
  });

  it('follows the content as it grows while stuck, and not once the person left the end', () => {
    let report = () => {};
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(cb: () => void) {
          report = cb;
        }
        observe() {}
        disconnect() {
          report = () => {};
        }
      },
    );
    const { f, el, detach, grow } = follower();
    const stop = f.content(el.appendChild(document.createElement('div'))) as () => void;
    try {
      scrollTo(el, 900);
      grow(1500);
      report();
      expect(el.scrollTop).toBe(1500);

      f.userMoved();
      scrollTo(el, 200);
      expect(f.stuck).toBe(false);
      grow(2000);
      report();
      expect(el.scrollTop).toBe(200);
    } finally {
      stop();
      detach();
      vi.unstubAllGlobals();
    }
  });
});
