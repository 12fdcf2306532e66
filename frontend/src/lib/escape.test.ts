import { describe, expect, it } from 'vitest';
import { escapeTo } from './escape';

describe('escapeTo', () => {
  it('answers Escape and keeps it from the handlers around it', () => {
    const outer = document.createElement('div');
    const inner = document.createElement('div');
    outer.append(inner);
    let cancelled = 0;
    let reachedOuter = 0;
    inner.addEventListener('keydown', escapeTo(() => cancelled++));
    outer.addEventListener('keydown', () => reachedOuter++);
    const esc = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true });
    inner.dispatchEvent(esc);
    expect(cancelled).toBe(1);
    expect(esc.defaultPrevented).toBe(true);
    expect(reachedOuter).toBe(0);
  });

  it('lets every other key through', () => {
    const outer = document.createElement('div');
    const inner = document.createElement('div');
    outer.append(inner);
    let cancelled = 0;
    let reachedOuter = 0;
    inner.addEventListener('keydown', escapeTo(() => cancelled++));
    outer.addEventListener('keydown', () => reachedOuter++);
    const enter = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true });
    inner.dispatchEvent(enter);
    expect(cancelled).toBe(0);
    expect(enter.defaultPrevented).toBe(false);
    expect(reachedOuter).toBe(1);
  });
});
