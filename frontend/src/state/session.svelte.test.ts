import { flushSync } from 'svelte';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionEvent, Snapshot } from '../lib/protocol';
import { manualClock } from '../lib/clock';

// The store uses api.Snapshot by default; mock the generated bindings underneath it.
const snapshots: Snapshot[] = [];
vi.mock('../../wailsjs/go/main/Sessions.js', () => ({
  Snapshot: vi.fn(async (id: string) => {
    const s = snapshots.shift();
    if (!s) throw 'no snapshot for ' + id;
    return s;
  }),
}));

import * as App from '../../wailsjs/go/main/Sessions.js';
import { REORDER_WAIT_MS, SessionStore } from './session.svelte';

const SID = 'live-1';
const info = { sessionId: SID, agentId: 'demo', agentName: 'Demo agent', cwd: '/p' };

function snap(seq: number, extra: Partial<Snapshot> = {}): Snapshot {
  return { sessionId: SID, seq, state: 'idle', agentName: 'Demo agent', cwd: '/p', title: '', entries: [], permissions: [], turns: [], ...extra };
}

function chunk(seq: number, text: string, sessionId = SID): SessionEvent {
  return { sessionId, seq, kind: 'chunk', entryId: 'a', text };
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
  flushSync();
};

describe('SessionStore', () => {
  beforeEach(() => {
    snapshots.length = 0;
    vi.mocked(App.Snapshot).mockClear();
  });

  it('takes a snapshot first, then applies newer events (buffered ones included)', async () => {
    snapshots.push(snap(2, { entries: [{ id: 'a', kind: 'agent', turn: 1, text: 'He' }] }));
    const store = new SessionStore();
    const attached = store.attach(info);
    expect(store.current?.state).toBe('starting');
    // Events that arrive while the snapshot is in flight: 2 is already in it, 3 is new.
    store.handle(chunk(2, 'XX'));
    store.handle(chunk(3, 'llo'));
    await attached;
    expect(App.Snapshot).toHaveBeenCalledWith(SID);
    expect(store.current?.seq).toBe(3);
    expect(store.current?.entries[0].text).toBe('Hello');
    store.handle(chunk(4, '!'));
    expect(store.current?.entries[0].text).toBe('Hello!');
  });

  it('folds the events of one message at once, and holds those behind a gap', async () => {
    snapshots.push(snap(1, { entries: [{ id: 'a', kind: 'agent', turn: 1, text: 'A' }] }));
    const clock = manualClock();
    const turnEnds: string[] = [];
    const store = new SessionStore({ clock, onTurnEnd: (id) => turnEnds.push(id) });
    await store.attach(info);
    const written: number[] = [];
    const stop = $effect.root(() => {
      $effect(() => {
        written.push(store.current?.seq ?? -1);
      });
    });
    flushSync();
    store.handleAll([chunk(2, 'B'), chunk(3, 'C'), { sessionId: SID, seq: 4, kind: 'turn_end', turn: 1, stopReason: 'end_turn' }, chunk(6, 'F')]);
    flushSync();
    expect(store.current?.entries[0].text).toBe('ABC');
    expect(store.current?.seq).toBe(4); // 6 waits for 5
    expect(turnEnds).toEqual([SID]);
    store.handleAll([chunk(5, 'E'), chunk(5, 'E')]); // the missing one (twice: the second is stale)
    flushSync();
    expect(store.current?.entries[0].text).toBe('ABCEF');
    expect(written).toEqual([1, 4, 6]);
    clock.advance(REORDER_WAIT_MS);
    expect(App.Snapshot).toHaveBeenCalledTimes(1); // the gap closed: no resync
    stop();
  });

  it('calls Snapshot on a seq gap that stays open and replaces its state', async () => {
    snapshots.push(snap(1, { entries: [{ id: 'a', kind: 'agent', turn: 1, text: 'A' }] }));
    const clock = manualClock();
    const store = new SessionStore({ clock });
    await store.attach(info);
    expect(App.Snapshot).toHaveBeenCalledTimes(1);

    store.handle(chunk(2, 'B'));
    expect(store.current?.entries[0].text).toBe('AB');

    // seq 3..5 were lost; 6 arrives. The snapshot at 6 has the full text.
    snapshots.push(snap(6, { entries: [{ id: 'a', kind: 'agent', turn: 1, text: 'ABCDEF' }] }));
    store.handle(chunk(6, 'F'));
    clock.advance(REORDER_WAIT_MS - 1);
    expect(App.Snapshot).toHaveBeenCalledTimes(1); // maybe they are only late
    clock.advance(1);
    expect(App.Snapshot).toHaveBeenCalledTimes(2);
    store.handle(chunk(7, 'G')); // arrives during the resync: buffered
    await settle();
    expect(store.current?.seq).toBe(7);
    expect(store.current?.entries[0].text).toBe('ABCDEFG');
  });

  it('puts events that arrive out of order back in order without a snapshot', async () => {
    snapshots.push(snap(1, { entries: [{ id: 'a', kind: 'agent', turn: 1, text: 'A' }] }));
    const clock = manualClock();
    const turnEnds: string[] = [];
    const store = new SessionStore({ clock, onTurnEnd: (id) => turnEnds.push(id) });
    await store.attach(info);
    store.handle(chunk(4, 'D'));
    store.handle(chunk(3, 'C'));
    expect(store.current?.seq).toBe(1);
    store.handle(chunk(2, 'B'));
    expect(store.current?.seq).toBe(4);
    expect(store.current?.entries[0].text).toBe('ABCD');
    store.handle({ sessionId: SID, seq: 6, kind: 'state', state: 'idle' });
    store.handle({ sessionId: SID, seq: 5, kind: 'turn_end', turn: 1, stopReason: 'end_turn' });
    expect(store.current?.seq).toBe(6);
    expect(store.current?.state).toBe('idle');
    expect(turnEnds).toEqual([SID]);
    clock.advance(REORDER_WAIT_MS * 2);
    expect(App.Snapshot).toHaveBeenCalledTimes(1);
  });

  it('reports a turn end that a snapshot brought', async () => {
    snapshots.push(snap(1));
    const clock = manualClock();
    const turnEnds: string[] = [];
    const store = new SessionStore({ clock, onTurnEnd: (id) => turnEnds.push(id) });
    await store.attach(info);
    expect(turnEnds).toEqual([]);
    snapshots.push(snap(9, { turns: [{ turn: 1, stopReason: 'end_turn' }] }));
    store.handle({ sessionId: SID, seq: 9, kind: 'state', state: 'idle' });
    clock.advance(REORDER_WAIT_MS);
    await settle();
    expect(App.Snapshot).toHaveBeenCalledTimes(2);
    expect(store.current?.turns).toEqual([{ turn: 1, stopReason: 'end_turn' }]);
    expect(turnEnds).toEqual([SID]);
    // The same ended turn in a later snapshot is not reported again.
    snapshots.push(snap(12, { turns: [{ turn: 1, stopReason: 'end_turn' }] }));
    store.handle({ sessionId: SID, seq: 12, kind: 'state', state: 'idle' });
    clock.advance(REORDER_WAIT_MS);
    await settle();
    expect(store.current?.seq).toBe(12);
    expect(turnEnds).toEqual([SID]);
  });

  it('ignores stale events and events of other sessions', async () => {
    snapshots.push(snap(3, { entries: [{ id: 'a', kind: 'agent', turn: 1, text: 'A' }] }));
    const store = new SessionStore();
    await store.attach(info);
    const before = store.current;
    store.handle(chunk(3, 'dup'));
    store.handle(chunk(4, 'other', 'someone-else'));
    expect(store.current).toBe(before);
    expect(App.Snapshot).toHaveBeenCalledTimes(1);
  });

  it('reports a failing Snapshot and keeps going with the events it has', async () => {
    const errors: string[] = [];
    const store = new SessionStore({ onError: (m) => errors.push(m) });
    await store.attach(info); // no snapshot queued: the mock rejects with a string
    expect(errors).toEqual(['no snapshot for live-1']);
    expect(store.current?.state).toBe('starting');
    store.handle({ sessionId: SID, seq: 1, kind: 'state', state: 'idle' });
    expect(store.current?.state).toBe('idle');
  });

  it('tracks when running and cancelling began, and reports turn ends', async () => {
    const clock = manualClock(1000);
    const turnEnds: string[] = [];
    const store = new SessionStore({ clock, snapshot: async () => snap(0), onTurnEnd: (id) => turnEnds.push(id) });
    await store.attach(info);
    store.handle({ sessionId: SID, seq: 1, kind: 'state', state: 'running' });
    expect(store.runningSince).toBe(1000);
    clock.advance(500);
    store.handle({ sessionId: SID, seq: 2, kind: 'state', state: 'cancelling' });
    expect(store.cancellingSince).toBe(1500);
    expect(store.runningSince).toBeNull();
    clock.advance(100);
    store.handle({ sessionId: SID, seq: 3, kind: 'turn_end', turn: 1, stopReason: 'cancelled' });
    expect(store.lastEventAt).toBe(1600);
    expect(turnEnds).toEqual([SID]);
  });

  it("gives the meter the session's cost so far, adding up the agent sessions it went through", async () => {
    const cost = (amount: number) => ({ amount, currency: 'USD' });
    snapshots.push(
      snap(1, {
        entries: [
          { id: 'e1', kind: 'usage', turn: 1, usage: { used: 10, size: 100, cost: cost(0.5) } },
          { id: 'e2', kind: 'boundary', turn: 2, boundary: { kind: 'summarised' } },
        ],
      }),
    );
    const store = new SessionStore();
    await store.attach(info);
    store.handle({ sessionId: SID, seq: 2, kind: 'entry', entry: { id: 'e3', kind: 'usage', turn: 2, usage: { used: 20, size: 100, cost: cost(0.25) } } });
    await settle();
    expect(store.usage?.used).toBe(20);
    expect(store.usage?.cost?.amount).toBeCloseTo(0.75);
  });
});
