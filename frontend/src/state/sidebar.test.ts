import { describe, expect, it } from 'vitest';
import { SIDEBAR_KEY, SidebarStore, type SidebarStorage } from './sidebar.svelte';

function memory(init: Record<string, string> = {}): SidebarStorage & { data: Record<string, string> } {
  const data = { ...init };
  return { data, getItem: (k) => data[k] ?? null, setItem: (k, v) => void (data[k] = v) };
}

describe('SidebarStore', () => {
  it('is shown on a first run, and remembers each toggle', () => {
    const storage = memory();
    const sidebar = new SidebarStore(storage);
    expect(sidebar.open).toBe(true);
    sidebar.toggle();
    expect(sidebar.open).toBe(false);
    expect(storage.data[SIDEBAR_KEY]).toBe('closed');
    expect(new SidebarStore(storage).open).toBe(false);
    sidebar.toggle();
    expect(new SidebarStore(storage).open).toBe(true);
  });

  it('works, unremembered, with a storage that refuses', () => {
    const refusing: SidebarStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('full');
      },
    };
    const sidebar = new SidebarStore(refusing);
    expect(sidebar.open).toBe(true);
    sidebar.toggle();
    expect(sidebar.open).toBe(false);
    expect(new SidebarStore(null).open).toBe(true);
  });
});
