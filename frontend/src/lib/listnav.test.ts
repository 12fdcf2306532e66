import { afterEach, describe, expect, it, vi } from 'vitest';
import { listKey, listKeys, step, type ListKeys } from './listnav';

function key(k: string, init: KeyboardEventInit = {}): KeyboardEvent {
  return new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...init });
}

function list(over: Partial<ListKeys> = {}): ListKeys & { picked: string[]; closed: number } {
  const l = {
    open: true,
    count: 3,
    index: 0,
    picked: [] as string[],
    closed: 0,
    select(i: number) {
      l.index = i;
    },
    pick(k: 'Enter' | 'Tab') {
      l.picked.push(k);
      return true;
    },
    close() {
      l.closed++;
    },
    ...over,
  };
  return l;
}

describe('step', () => {
  it('moves down and up, wrapping at both ends', () => {
    expect(step('ArrowDown', 0, 3)).toBe(1);
    expect(step('ArrowDown', 2, 3)).toBe(0);
    expect(step('ArrowUp', 0, 3)).toBe(2);
    expect(step('ArrowDown', -1, 3)).toBe(0); // nothing selected yet: the first
  });

  it('goes to the ends only when asked, and ignores other keys and empty lists', () => {
    expect(step('Home', 2, 3)).toBeNull();
    expect(step('End', 0, 3, true)).toBe(2);
    expect(step('Home', 2, 3, true)).toBe(0);
    expect(step('a', 0, 3, true)).toBeNull();
    expect(step('ArrowDown', 0, 0)).toBeNull();
  });
});

describe('listKey', () => {
  it('moves the selection and prevents the key', () => {
    const l = list();
    const e = key('ArrowUp');
    expect(listKey(e, l)).toBe(true);
    expect(l.index).toBe(2);
    expect(e.defaultPrevented).toBe(true);
  });

  it('takes the arrows even from an empty list (the field must not move its caret)', () => {
    const l = list({ count: 0 });
    expect(listKey(key('ArrowDown'), l)).toBe(true);
    expect(l.index).toBe(0);
  });

  it('picks with Enter or Tab, not with Shift or while composing, and lets the key through when nothing was picked', () => {
    const l = list();
    expect(listKey(key('Enter'), l)).toBe(true);
    expect(listKey(key('Tab'), l)).toBe(true);
    expect(listKey(key('Enter', { shiftKey: true }), l)).toBe(false);
    expect(listKey(key('Enter', { isComposing: true }), l)).toBe(false);
    expect(l.picked).toEqual(['Enter', 'Tab']);
    const none = list({ pick: () => false });
    const e = key('Enter');
    expect(listKey(e, none)).toBe(false);
    expect(e.defaultPrevented).toBe(false);
  });

  it('closes with Esc and stops it there', () => {
    const l = list();
    const e = key('Escape');
    const stop = vi.spyOn(e, 'stopPropagation');
    expect(listKey(e, l)).toBe(true);
    expect(l.closed).toBe(1);
    expect(stop).toHaveBeenCalled();
  });

  it('leaves every key alone while closed, other keys, and keys prevented already', () => {
    expect(listKey(key('ArrowDown'), list({ open: false }))).toBe(false);
    expect(listKey(key('a'), list())).toBe(false);
    const e = key('ArrowDown');
    e.preventDefault();
    const l = list();
    expect(listKey(e, l)).toBe(false);
    expect(l.index).toBe(0);
  });
});

describe('listKeys (attachment)', () => {
  afterEach(() => document.body.replaceChildren());

  it("handles the field's keys with the list as it is at each press, until detached", () => {
    const input = document.body.appendChild(document.createElement('input'));
    const l = list();
    let current: ListKeys = l;
    const detach = listKeys(() => current)(input) as () => void;
    const onWindow = vi.fn();
    window.addEventListener('keydown', onWindow);
    try {
      input.dispatchEvent(key('ArrowDown'));
      expect(l.index).toBe(1);
      input.dispatchEvent(key('Escape'));
      expect(l.closed).toBe(1);
      expect(onWindow).toHaveBeenCalledTimes(1); // the arrow reached the window, Esc did not
      current = list({ open: false });
      input.dispatchEvent(key('ArrowDown'));
      expect(l.index).toBe(1);
      current = l;
      detach();
      input.dispatchEvent(key('ArrowDown'));
      expect(l.index).toBe(1);
    } finally {
      window.removeEventListener('keydown', onWindow);
    }
  });
});
