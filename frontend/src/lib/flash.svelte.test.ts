import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import { manualClock } from './clock';
import { Flash } from './flash.svelte';

describe('Flash', () => {
  it('shows a value for a while, restarting the wait on each show, and stops its timer when disposed', () => {
    const clock = manualClock();
    let flash!: Flash<string>;
    const dispose = $effect.root(() => {
      flash = new Flash<string>(clock, 1_000);
    });
    flushSync();
    flash.show('a');
    expect(flash.value).toBe('a');
    clock.advance(600);
    flash.show('b');
    clock.advance(600);
    expect(flash.value).toBe('b'); // the wait started again at the second show
    clock.advance(400);
    expect(flash.value).toBeNull();

    flash.show('c');
    dispose();
    clock.advance(5_000);
    expect(flash.value).toBe('c'); // the timer went with its owner
  });
});
