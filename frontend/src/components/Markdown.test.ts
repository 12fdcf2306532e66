// Markdown's first render waits for the frame budget (lib/budget.ts) when a frame has spent it:
// meanwhile the text shows plain, and plain means escaped, never HTML.
import { cleanup, render } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CALM_MS, frameBudget } from '../lib/budget';
import { realClock } from '../lib/clock';
import Markdown from './Markdown.svelte';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

describe('Markdown', () => {
  it('shows the text escaped while the frame has no budget left, then renders it in a later frame', async () => {
    let now = Date.now();
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    await frame(); // start from a fresh frame
    expect(frameBudget(realClock).tryRun(() => (now += 50))).toBe(true); // this frame's budget, spent

    const text = '**bold** <img src=x onerror="alert(1)"> done';
    const { container } = render(Markdown, { props: { text } });
    const plain = container.querySelector('.plain');
    expect(plain?.textContent).toBe(text);
    expect(container.querySelector('img, strong')).toBeNull();

    await frame(); // the frame that asked: deferred work waits for a calm one
    flushSync();
    expect(container.querySelector('.plain')).not.toBeNull();
    now += CALM_MS; // no frame has asked since: calm
    await frame();
    flushSync();
    expect(container.querySelector('.plain')).toBeNull();
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    const img = container.querySelector('img');
    expect(img?.getAttribute('onerror')).toBeNull();
    expect(img?.hasAttribute('src')).toBe(false);
  });
});
