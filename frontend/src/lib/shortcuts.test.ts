import { afterEach, describe, expect, it, vi } from 'vitest';
import { shortcutFor, shortcuts } from './shortcuts';

afterEach(() => document.body.replaceChildren());

const key = (k: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey', boolean>> = {}) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

describe('shortcutFor', () => {
  it('maps the session keys, with Ctrl or Cmd', () => {
    expect(shortcutFor(key('N', { ctrlKey: true, shiftKey: true }))).toBe('new');
    expect(shortcutFor(key('n', { metaKey: true, shiftKey: true }))).toBe('new');
    expect(shortcutFor(key('PageDown', { ctrlKey: true }))).toBe('next');
    expect(shortcutFor(key('PageUp', { ctrlKey: true }))).toBe('prev');
    expect(shortcutFor(key('w', { ctrlKey: true }))).toBe('close');
    expect(shortcutFor(key('W', { metaKey: true }))).toBe('close');
    expect(shortcutFor(key('b', { ctrlKey: true }))).toBe('sidebar');
    expect(shortcutFor(key('B', { metaKey: true }))).toBe('sidebar');
  });

  it('leaves every other key alone', () => {
    expect(shortcutFor(key('n', { ctrlKey: true }))).toBeNull(); // a new window, elsewhere
    expect(shortcutFor(key('w'))).toBeNull();
    expect(shortcutFor(key('PageDown'))).toBeNull();
    expect(shortcutFor(key('w', { ctrlKey: true, altKey: true }))).toBeNull();
    expect(shortcutFor(key('w', { ctrlKey: true, shiftKey: true }))).toBeNull();
    expect(shortcutFor(key('k', { ctrlKey: true }))).toBeNull();
    expect(shortcutFor(key('b'))).toBeNull();
    expect(shortcutFor(key('b', { ctrlKey: true, shiftKey: true }))).toBeNull();
  });
});

describe('shortcuts', () => {
  it('runs the handler of a key pressed anywhere in the window and prevents its default, until detached', () => {
    const node = document.body.appendChild(document.createElement('div'));
    const input = document.body.appendChild(document.createElement('textarea'));
    const next = vi.fn();
    const close = vi.fn();
    const detach = shortcuts({ next, close })(node) as () => void;

    const e = new KeyboardEvent('keydown', { key: 'PageDown', ctrlKey: true, bubbles: true, cancelable: true });
    input.dispatchEvent(e);
    expect(next).toHaveBeenCalledTimes(1);
    expect(e.defaultPrevented).toBe(true);

    // A key without a handler, or one already taken, is left alone.
    const prev = new KeyboardEvent('keydown', { key: 'PageUp', ctrlKey: true, bubbles: true, cancelable: true });
    input.dispatchEvent(prev);
    expect(prev.defaultPrevented).toBe(false);
    const taken = new KeyboardEvent('keydown', { key: 'w', ctrlKey: true, bubbles: true, cancelable: true });
    taken.preventDefault();
    input.dispatchEvent(taken);
    expect(close).not.toHaveBeenCalled();

    detach();
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'PageDown', ctrlKey: true, bubbles: true, cancelable: true }));
    expect(next).toHaveBeenCalledTimes(1);
  });
});
