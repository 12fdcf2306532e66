import { describe, expect, it } from 'vitest';
import { escapeTo } from './escape';

/** Presses key inside an element handled by escapeTo, itself inside one with a handler of its own. */
function press(key: string) {
  const outer = document.createElement('div');
  const inner = document.createElement('div');
  outer.append(inner);
  const seen = { cancelled: 0, outer: 0 };
  inner.addEventListener('keydown', escapeTo(() => seen.cancelled++));
  outer.addEventListener('keydown', () => seen.outer++);
  const e = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
  inner.dispatchEvent(e);
  return { ...seen, prevented: e.defaultPrevented };
}

describe('escapeTo', () => {
  it('answers Escape and keeps it from the handlers around it', () => {
    expect(press('Escape')).toEqual({ cancelled: 1, outer: 0, prevented: true });
  });

  it('lets every other key through', () => {
    expect(press('Enter')).toEqual({ cancelled: 0, outer: 1, prevented: false });
  });
});
