import { describe, expect, it, vi } from 'vitest';
import type { JournalLine } from '../lib/protocol';
import { INSPECTOR_PAGE, InspectorStore } from './inspector.svelte';

function lines(n: number, method = 'session/update'): JournalLine[] {
  return Array.from({ length: n }, (_, i) => ({ direction: 'in', method, json: `{"jsonrpc":"2.0","method":"${method}","params":{"i":${i}}}`, at: '2026-03-10T12:00:00.000Z' }));
}

describe('InspectorStore', () => {
  it('opens on a session, loads its journal and closes', async () => {
    const messages = vi.fn(async () => lines(3));
    const s = new InspectorStore({ messages });
    await s.toggle('s1');
    expect(s.open).toBe(true);
    expect(messages).toHaveBeenCalledWith('s1');
    expect(s.rows).toHaveLength(3);
    expect(s.loading).toBe(false);
    await s.toggle('s1');
    expect(s.open).toBe(false);
    await s.refresh(); // closed: no call
    expect(messages).toHaveBeenCalledTimes(1);
  });

  it('renders the last page of a long journal and shows earlier pages on request', async () => {
    const s = new InspectorStore({ messages: async () => lines(1_234) });
    await s.show('s1');
    expect(s.visible).toHaveLength(INSPECTOR_PAGE);
    expect(s.visible[0].index).toBe(1_234 - INSPECTOR_PAGE);
    expect(s.hidden).toBe(1_234 - INSPECTOR_PAGE);
    s.showEarlier();
    expect(s.visible).toHaveLength(2 * INSPECTOR_PAGE);
    s.showEarlier();
    expect(s.visible).toHaveLength(1_234);
    expect(s.hidden).toBe(0);
  });

  it('keeps the newest answer when loads overlap, and resets when the session changes', async () => {
    const resolvers: ((v: JournalLine[]) => void)[] = [];
    const s = new InspectorStore({ messages: () => new Promise((r) => resolvers.push(r)) });
    const first = s.show('s1');
    const second = s.refresh();
    resolvers[1](lines(2));
    await second;
    resolvers[0](lines(1));
    await first;
    expect(s.rows).toHaveLength(2);

    s.limit = 5_000;
    const third = s.load('s2');
    expect(s.rows).toEqual([]);
    expect(s.limit).toBe(INSPECTOR_PAGE);
    resolvers[2](lines(4));
    await third;
    expect(s.sessionId).toBe('s2');
    expect(s.rows).toHaveLength(4);
  });

  it('reports a failed read', async () => {
    const onError = vi.fn();
    const s = new InspectorStore({ messages: async () => Promise.reject('no such session'), onError });
    await s.show('gone');
    expect(onError).toHaveBeenCalledWith('no such session');
    expect(s.loading).toBe(false);
  });
});
