import { describe, expect, it } from 'vitest';
import { pickIndexes } from './virtual.svelte';

describe('pickIndexes', () => {
  it('renders a small list whole, whatever is visible or pinned', () => {
    expect(pickIndexes(4, [1, 2], [3], 100)).toEqual([0, 1, 2, 3]);
    expect(pickIndexes(0, null, [], 100)).toEqual([]);
  });

  it('adds the pinned rows to the visible ones, sorted and unique', () => {
    expect(pickIndexes(1000, [500, 501, 502], [999, 3, 501, 999], 100)).toEqual([3, 500, 501, 502, 999]);
  });

  it('ignores pinned indexes outside the list', () => {
    expect(pickIndexes(200, [10, 11], [-1, 200, 5000], 100)).toEqual([10, 11]);
  });

  it('without layout renders the last rows and the pinned ones', () => {
    expect(pickIndexes(10, null, [2], 4)).toEqual([2, 6, 7, 8, 9]);
  });
});
