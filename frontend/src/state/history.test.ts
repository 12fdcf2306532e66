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
    openHistoryTail: vi.fn(async (id: string) => ({ snapshot: { sessionId: id, seq: 0, state: '' as const, agentName: 'Demo agent', cwd: '/p', title: 'First', entries: [], permissions: [], turns: [] }, earlier: 0 })),
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

describe('HistoryStore open', () => {
  const agent = (i: number) => ({ id: `e${i}`, kind: 'agent' as const, turn: 1, text: `entry ${i}` });
  const snap = (id: string, from: number, to: number) => ({ sessionId: id, seq: 0, state: '' as const, agentName: 'Demo agent', cwd: '/p', title: id, entries: Array.from({ length: to - from }, (_, i) => agent(from + i)), permissions: [], turns: [] });

  it('shows the end of a long session first, then the whole; a later open wins over a slower one', async () => {
    let finishWhole: (() => void) | null = null;
    const { s, deps } = store({
      openHistoryTail: vi.fn(async (id: string, limit: number) => ({ snapshot: snap(id, 1000 - limit, 1000), earlier: 1000 - limit })),
      openHistory: vi.fn((id: string) => new Promise<ReturnType<typeof snap>>((resolve) => (finishWhole = () => resolve(snap(id, 0, 1000))))),
    });
    const opening = s.open('long');
    await vi.waitFor(() => expect(s.saved?.entries).toHaveLength(200));
    expect(deps.openHistoryTail).toHaveBeenCalledWith('long', 200);
    expect(s.saved?.entries[0].id).toBe('e800');
    finishWhole!();
    await opening;
    expect(s.saved?.entries).toHaveLength(1000);
    expect(s.saved?.entries[999].id).toBe('e999');

    // Opening another session while the first one's whole is still on its way.
    const first = s.open('one');
    await vi.waitFor(() => expect(s.saved?.sessionId).toBe('one'));
    await vi.waitFor(() => expect(deps.openHistory).toHaveBeenCalledTimes(2));
    const resolveFirst = finishWhole!;
    const second = s.open('two');
    await vi.waitFor(() => expect(deps.openHistory).toHaveBeenCalledTimes(3));
    expect(s.saved?.sessionId).toBe('two');
    finishWhole!(); // two's whole
    await second;
    resolveFirst(); // one's whole, late: ignored
    await first;
    expect(s.saved?.sessionId).toBe('two');
    expect(s.saved?.entries).toHaveLength(1000);
  });
});

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
