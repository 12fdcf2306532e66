import { describe, expect, it, vi } from 'vitest';
import { manualClock } from '../lib/clock';
import type { HistoryItem } from '../lib/protocol';
import { HistoryStore } from './history.svelte';

function item(id: string, title: string): HistoryItem {
  return { id, title, agentName: 'Demo agent', cwd: '/p', createdAt: '', updatedAt: '', outcome: 'end_turn', turns: 1 };
}

function store(overrides: Partial<NonNullable<ConstructorParameters<typeof HistoryStore>[0]>> = {}) {
  const onError = vi.fn((_message: string) => {});
  let items = [item('a', 'First'), item('b', 'Second')];
  const deps = {
    listHistory: vi.fn(async () => items),
    openHistoryPart: vi.fn(async (id: string) => ({ snapshot: { sessionId: id, seq: 0, state: '' as const, agentName: 'Demo agent', cwd: '/p', title: 'First', entries: [], permissions: [], turns: [] }, from: 0, total: 0 })),
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
  const agent = (i: number) => ({ id: `e${i}`, kind: 'agent' as const, turn: 1 + Math.floor(i / 1000), text: `entry ${i}` });
  const TOTAL = 5000;
  /** The part [from, from+limit) of a 5,000-entry session of 5 turns; a part lists the turns of its entries. */
  const part = (id: string, from: number, limit: number) => {
    const start = from < 0 ? TOTAL - limit : from;
    const entries = Array.from({ length: Math.min(limit, TOTAL - start) }, (_, i) => agent(start + i));
    const turns = [...new Set(entries.map((e) => e.turn))].map((turn) => ({ turn, stopReason: 'end_turn' }));
    return { snapshot: { sessionId: id, seq: 0, state: '' as const, agentName: 'Demo agent', cwd: '/p', title: id, entries, permissions: [], turns }, from: start, total: TOTAL };
  };

  it('shows the end of a long session first, then adds the earlier parts in front', async () => {
    const shown: Array<[string, number]> = [];
    let release: (() => void) | null = null;
    const { s, deps } = store({
      openHistoryPart: vi.fn(async (id: string, from: number, limit: number) => {
        if (from >= 0) await new Promise<void>((resolve) => (release = resolve)); // one earlier part at a time, on cue
        return part(id, from, limit);
      }),
    });
    const opening = s.open('long');
    await vi.waitFor(() => expect(s.saved?.entries).toHaveLength(200));
    shown.push([s.saved!.entries[0].id, s.saved!.entries.length]);
    expect(deps.openHistoryPart).toHaveBeenLastCalledWith('long', 2800, 2000);
    release!();
    await vi.waitFor(() => expect(s.saved?.entries).toHaveLength(2200));
    expect(deps.openHistoryPart).toHaveBeenLastCalledWith('long', 800, 2000);
    release!();
    await vi.waitFor(() => expect(deps.openHistoryPart).toHaveBeenLastCalledWith('long', 0, 800));
    release!();
    await opening;
    expect(s.saved?.entries.map((e) => e.id)).toEqual(Array.from({ length: TOTAL }, (_, i) => `e${i}`));
    expect(s.saved?.turns.map((t) => t.turn)).toEqual([1, 2, 3, 4, 5]);
    expect(shown).toEqual([['e4800', 200]]);
  });

  it('stops reading a session once another one is opened', async () => {
    let release: (() => void) | null = null;
    const openHistoryPart = vi.fn(async (id: string, from: number, limit: number) => {
      if (id === 'one' && from >= 0) await new Promise<void>((resolve) => (release = resolve));
      return part(id, from, limit);
    });
    const { s } = store({ openHistoryPart });
    const first = s.open('one');
    await vi.waitFor(() => expect(release).not.toBeNull());
    await s.open('two');
    expect(s.saved?.sessionId).toBe('two');
    release!(); // one's earlier part, late: ignored, and no further part is read
    await first;
    expect(s.saved?.sessionId).toBe('two');
    expect(openHistoryPart.mock.calls.filter(([id]) => id === 'one')).toHaveLength(2);
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
