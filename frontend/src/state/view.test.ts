import { describe, expect, it } from 'vitest';
import type { Entry, SessionEvent } from '../lib/protocol';
import { apply, emptyState, type TranscriptState } from './transcript';
import { TranscriptView } from './view.svelte';

const SID = 's1';
let seq = 0;
function step(s: TranscriptState, spec: Record<string, unknown> & { kind: SessionEvent['kind'] }): TranscriptState {
  seq += 1;
  return apply(s, { sessionId: SID, seq, ...spec } as SessionEvent);
}
const entry = (id: string, kind: Entry['kind'], extra: Partial<Entry> = {}): Entry => ({ id, kind, turn: 1, ...extra });

describe('TranscriptView', () => {
  it('a chunk updates only its cell; the cell list changes only on insert', () => {
    const tv = new TranscriptView();
    let s = emptyState(SID);
    s = step(s, { kind: 'entry', entry: entry('u', 'user', { text: 'q' }) });
    s = step(s, { kind: 'entry', entry: entry('a', 'agent', { text: 'He' }) });
    tv.sync(s);
    const cells = tv.cells;
    const [u, a] = cells;
    const uEntry = u.entry;
    expect(cells.map((c) => c.id)).toEqual(['u', 'a']);
    expect([u.isLast, a.isLast]).toEqual([false, true]);

    s = step(s, { kind: 'chunk', entryId: 'a', text: 'llo' });
    tv.sync(s);
    expect(tv.cells).toBe(cells);
    expect(a.entry.text).toBe('Hello');
    expect(u.entry).toBe(uEntry);

    s = step(s, { kind: 'entry', entry: entry('t', 'tool', { status: 'pending' }) });
    tv.sync(s);
    expect(tv.cells).not.toBe(cells);
    expect(tv.cells[0]).toBe(u);
    expect(tv.cells[1]).toBe(a);
    expect([u.isLast, a.isLast, tv.cells[2].isLast]).toEqual([false, false, true]);
  });

  it('routes permissions and decisions to their tool cell, or leaves them loose', () => {
    const tv = new TranscriptView();
    let s = emptyState(SID);
    s = step(s, { kind: 'entry', entry: entry('t', 'tool', { toolCallId: 'call-1' }) });
    s = step(s, { kind: 'permission', requestId: 'r1', toolCallId: 't', title: 'x', options: [{ id: 'ok', name: 'Allow', kind: 'allow_once' }] });
    s = step(s, { kind: 'permission', requestId: 'r2', toolCallId: 'ghost', title: 'y', options: [] });
    tv.sync(s);
    const t = tv.cells[0];
    expect(t.permissions.map((p) => p.requestId)).toEqual(['r1']);
    expect(tv.loosePermissions.map((p) => p.requestId)).toEqual(['r2']);

    s = step(s, {
      kind: 'permission_done',
      requestId: 'r1',
      decision: { requestId: 'r1', toolCallId: 't', outcome: 'selected', optionId: 'ok', optionName: 'Allow', optionKind: 'allow_once', verdict: 'allow' },
    });
    tv.sync(s);
    expect(t.permissions).toHaveLength(0);
    expect(t.decisions.map((d) => d.optionKind)).toEqual(['allow_once']);
  });

  it('places turn dividers after the last entry of each ended turn', () => {
    const tv = new TranscriptView();
    let s = emptyState(SID);
    s = step(s, { kind: 'entry', entry: entry('u1', 'user') });
    s = step(s, { kind: 'entry', entry: entry('a1', 'agent') });
    s = step(s, { kind: 'turn_end', turn: 1, stopReason: 'end_turn' });
    tv.sync(s);
    expect(tv.cells.map((c) => c.turnEnd?.stopReason ?? null)).toEqual([null, 'end_turn']);
    s = step(s, { kind: 'entry', entry: entry('late', 'agent') }); // a late update of turn 1
    tv.sync(s);
    expect(tv.cells.map((c) => c.turnEnd?.stopReason ?? null)).toEqual([null, null, 'end_turn']);
  });

  it('starts over for another session', () => {
    const tv = new TranscriptView();
    tv.sync(step(emptyState(SID), { kind: 'entry', entry: entry('x', 'agent') }));
    const other = { ...emptyState('s2'), entries: [entry('y', 'agent')] };
    tv.sync(other);
    expect(tv.cells.map((c) => c.id)).toEqual(['y']);
    tv.sync(null);
    expect(tv.cells).toHaveLength(0);
  });
});
