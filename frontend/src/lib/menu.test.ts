import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { menu } from './menu';

let trigger: HTMLButtonElement;
let node: HTMLDivElement;
let items: HTMLButtonElement[];
let close: ReturnType<typeof vi.fn<(refocus: boolean) => void>>;
let detach: () => void;

function key(k: string, target: Element = document.activeElement ?? node): KeyboardEvent {
  const e = new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true });
  target.dispatchEvent(e);
  return e;
}

beforeEach(() => {
  trigger = document.body.appendChild(document.createElement('button'));
  node = document.body.appendChild(document.createElement('div'));
  node.setAttribute('role', 'menu');
  items = ['a', 'b', 'c'].map((t) => {
    const b = node.appendChild(document.createElement('button'));
    b.setAttribute('role', 'menuitem');
    b.textContent = t;
    return b;
  });
  close = vi.fn<(refocus: boolean) => void>();
  detach = menu({ close, trigger: () => trigger })(node) as () => void;
});

afterEach(() => {
  detach();
  document.body.replaceChildren();
});

describe('menu', () => {
  it('focuses its first item, then moves with the arrows (wrapping), Home and End', () => {
    expect(document.activeElement).toBe(items[0]);
    expect(key('ArrowUp').defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(items[2]);
    key('ArrowDown');
    expect(document.activeElement).toBe(items[0]);
    key('End');
    expect(document.activeElement).toBe(items[2]);
    key('Home');
    expect(document.activeElement).toBe(items[0]);
    expect(key('x').defaultPrevented).toBe(false);
    expect(close).not.toHaveBeenCalled();
  });

  it('closes with Esc, giving the focus back, and the key goes no further', () => {
    const onWindow = vi.fn();
    window.addEventListener('keydown', onWindow);
    try {
      key('Escape');
    } finally {
      window.removeEventListener('keydown', onWindow);
    }
    expect(close).toHaveBeenCalledWith(true);
    expect(onWindow).not.toHaveBeenCalled();
  });

  it('closes without taking the focus back on Tab, on the focus leaving and on a press outside', () => {
    key('Tab');
    expect(close).toHaveBeenLastCalledWith(false);
    const other = document.body.appendChild(document.createElement('input'));
    other.focus();
    expect(close).toHaveBeenCalledTimes(2);
    other.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    expect(close).toHaveBeenCalledTimes(3);
    expect(close.mock.calls.every(([refocus]) => refocus === false)).toBe(true);
  });

  it('stays open for a press on its button or an item, and for focus going nowhere', () => {
    trigger.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    items[1].dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    items[0].blur();
    expect(close).not.toHaveBeenCalled();
  });
});
