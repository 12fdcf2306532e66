import { describe, expect, it, vi } from 'vitest';
import { manualClock } from '../lib/clock';
import type { HistoryItem } from '../lib/protocol';
import { HistoryStore } from './history.svelte';

vi.mock('../../wailsjs/go/main/App.js', () => ({}));
vi.mock('../../wailsjs/runtime/runtime.js', () => ({}));

function item(id: string, title: string): HistoryItem {
  return { id, title, agentName: 'Demo agent', cwd: '/p', createdAt: '', updatedAt: '', outcome: 'end_turn', turns: 1 };
}

function store(overrides: Partial<NonNullable<ConstructorParameters<typeof HistoryStore>[0]>> = {}) {
  const onError = vi.fn((_message: string) => {});
  let items = [item('a', 'First'), item('b', 'Second')];
  const deps = {
    listHistory: vi.fn(async () => items),
    openHistory: vi.fn(async (id: string) => ({ sessionId: id, seq: 0, state: '' as const, agentName: 'Demo agent', cwd: '/p', title: 'First', entries: [], permissions: [], turns: [] })),
    renameHistory: vi.fn(async (id: string, title: string) => {
      items = items.map((it) => (it.id === id ? { ...it, title } : it));
    }),
    deleteHistory: vi.fn(async (id: string) => {
      items = items.filter((it) => it.id !== id);
    }),
    exportHistory: vi.fn(async (id: string) => `# ${id}\n`),
    copy: vi.fn(async (_text: string) => {}),
    onError,
    clock: manualClock(),
    ...overrides,
  };
  return { s: new HistoryStore(deps), deps, onError };
}

describe('HistoryStore actions', () => {
  it('renames (trimmed), updates the list and an open saved copy', async () => {
    const { s, deps } = store();
    await s.refresh();
    await s.open('a');
    expect(await s.rename('a', '  Better title ')).toBe(true);
    expect(deps.renameHistory).toHaveBeenCalledWith('a', 'Better title');
    expect(s.items[0].title).toBe('Better title');
    expect(s.saved?.title).toBe('Better title');
    expect(await s.rename('a', '   ')).toBe(false);
    expect(deps.renameHistory).toHaveBeenCalledTimes(1);
  });

  it('deletes, drops the item at once and closes the saved copy if it was shown', async () => {
    const { s, deps } = store();
    await s.refresh();
    await s.open('a');
    expect(await s.remove('a')).toBe(true);
    expect(deps.deleteHistory).toHaveBeenCalledWith('a');
    expect(s.items.map((i) => i.id)).toEqual(['b']);
    expect(s.saved).toBeNull();
    expect(s.selectedId).toBeNull();
  });

  it('copies the Markdown export', async () => {
    const { s, deps } = store();
    expect(await s.copyMarkdown('b')).toBe(true);
    expect(deps.exportHistory).toHaveBeenCalledWith('b', 'md');
    expect(deps.copy).toHaveBeenCalledWith('# b\n');
  });

  it('reports failures and keeps the list', async () => {
    const { s, onError } = store({
      deleteHistory: vi.fn(async () => Promise.reject('database is locked')),
      renameHistory: vi.fn(async () => Promise.reject('no such session')),
      copy: vi.fn(async () => Promise.reject(new Error('Could not copy to the clipboard.'))),
    });
    await s.refresh();
    expect(await s.remove('a')).toBe(false);
    expect(await s.rename('a', 'x')).toBe(false);
    expect(await s.copyMarkdown('a')).toBe(false);
    expect(onError.mock.calls.map((c) => c[0])).toEqual(['database is locked', 'no such session', 'Could not copy to the clipboard.']);
    expect(s.items.map((i) => i.id)).toEqual(['a', 'b']);
    expect(s.items[0].title).toBe('First');
  });
});
