import { describe, expect, it } from 'vitest';
import type { Entry, SessionEvent, Snapshot } from '../lib/protocol';
import {
  apply,
  applyAll,
  decisionLabel,
  emptyState,
  entryIndex,
  fromSnapshot,
  isGap,
  isStale,
  turnDividers,
  type TranscriptState,
} from './transcript';

const SID = 's1';

/** Builds events with consecutive seqs. */
function events(...specs: Array<Record<string, unknown> & { kind: SessionEvent['kind'] }>): SessionEvent[] {
  return specs.map((s, i) => ({ sessionId: SID, seq: i + 1, ...s }) as SessionEvent);
}

/** The state after events(...specs), from an empty one. */
function replay(...specs: Parameters<typeof events>): TranscriptState {
  return applyAll(emptyState(SID), events(...specs));
}

function entry(id: string, kind: Entry['kind'], extra: Partial<Entry> = {}): Entry {
  return { id, kind, turn: 1, ...extra };
}

describe('apply: entries', () => {
  it('inserts new entries at the end in arrival order', () => {
    const s = replay(
      { kind: 'entry', entry: entry('a', 'user', { text: 'hi' }) },
      { kind: 'entry', entry: entry('b', 'agent', { text: 'hello' }) },
    );
    expect(s.entries.map((e) => e.id)).toEqual(['a', 'b']);
    expect(s.seq).toBe(2);
  });

  it('replaces a known entry in place (upsert by id) without touching the others', () => {
    const s1 = replay(
      { kind: 'entry', entry: entry('t', 'tool', { status: 'pending', title: 'Edit' }) },
      { kind: 'entry', entry: entry('x', 'agent', { text: 'after' }) },
    );
    const x = s1.entries[1];
    const s2 = apply(s1, {
      sessionId: SID,
      seq: 3,
      kind: 'entry',
      entry: entry('t', 'tool', { status: 'completed', title: 'Edit' }),
    });
    expect(s2.entries.map((e) => e.id)).toEqual(['t', 'x']);
    expect(s2.entries[0].status).toBe('completed');
    expect(s2.entries[1]).toBe(x); // identity kept: keyed rendering skips it
    expect(s1.entries[0].status).toBe('pending'); // the old state is untouched
  });
});

describe('apply: chunks', () => {
  it('appends text to the entry and creates a new object only for it', () => {
    const s1 = replay(
      { kind: 'entry', entry: entry('u', 'user', { text: 'q' }) },
      { kind: 'entry', entry: entry('a', 'agent', { text: 'Hel' }) },
    );
    const user = s1.entries[0];
    const agent = s1.entries[1];
    const s2 = apply(s1, { sessionId: SID, seq: 3, kind: 'chunk', entryId: 'a', text: 'lo' });
    const s3 = apply(s2, { sessionId: SID, seq: 4, kind: 'chunk', entryId: 'a', text: ' world' });
    expect(s3.entries[1].text).toBe('Hello world');
    expect(s3.entries[0]).toBe(user);
    expect(s3.entries[1]).not.toBe(agent);
    expect(agent.text).toBe('Hel');
    expect(s1.entries).not.toBe(s2.entries);
    expect(s3.permissions).toBe(s1.permissions);
    expect(s3.turns).toBe(s1.turns);
  });

  it('treats a missing text as empty', () => {
    const s = replay({ kind: 'entry', entry: entry('t', 'thought') }, { kind: 'chunk', entryId: 't', text: 'abc' });
    expect(s.entries[0].text).toBe('abc');
  });

  it('keeps the text of a chunk for an unknown entry', () => {
    const s = replay({ kind: 'chunk', entryId: 'ghost', text: 'boo' });
    expect(s.entries).toHaveLength(1);
    expect(s.entries[0]).toMatchObject({ id: 'ghost', text: 'boo' });
  });
});

describe('apply: permissions', () => {
  const open = {
    kind: 'permission' as const,
    requestId: 'r1',
    toolCallId: 't',
    title: 'Edit file',
    options: [
      { id: 'ok', name: 'Allow once', kind: 'allow_once', verdict: 'allow' },
      { id: 'no', name: 'Reject', kind: 'reject_once', verdict: 'reject' },
    ],
  };
  /** permission_done as Go sends it: the decision whole, the chosen option's name, kind and verdict in it. */
  const done = (optionId: string, name: string, kind: string, verdict: string) => ({
    kind: 'permission_done' as const,
    requestId: 'r1',
    decision: { requestId: 'r1', toolCallId: 't', outcome: 'selected', optionId, optionName: name, optionKind: kind, verdict },
  });

  it('opens and closes a request, recording the decision', () => {
    const s1 = replay({ kind: 'entry', entry: entry('t', 'tool') }, open);
    expect(s1.permissions).toHaveLength(1);
    expect(s1.permissions[0]).toMatchObject({ requestId: 'r1', toolCallId: 't' });
    const s2 = apply(s1, { sessionId: SID, seq: 3, ...done('ok', 'Allow once', 'allow_once', 'allow') });
    expect(s2.permissions).toHaveLength(0);
    expect(s2.decisions).toEqual([
      { requestId: 'r1', toolCallId: 't', outcome: 'selected', optionId: 'ok', optionKind: 'allow_once', optionName: 'Allow once', verdict: 'allow' },
    ]);
    expect(decisionLabel(s2.decisions[0])).toBe('Allowed once');
    expect(s1.permissions).toHaveLength(1);
  });

  it('keeps several requests open at once and closes them independently', () => {
    const s = replay(
      open,
      { ...open, requestId: 'r2', toolCallId: 'u' },
      { kind: 'permission_done', requestId: 'r2', decision: { requestId: 'r2', toolCallId: 'u', outcome: 'cancelled' } },
    );
    expect(s.permissions.map((p) => p.requestId)).toEqual(['r1']);
    expect(s.decisions).toHaveLength(1);
    expect(decisionLabel(s.decisions[0])).toBe('Cancelled');
  });

  it('labels rejections', () => {
    const s = replay(open, done('no', 'Reject', 'reject_once', 'reject'));
    expect(decisionLabel(s.decisions[0])).toBe('Rejected');
  });

  it('normalises null options', () => {
    const s = replay({ ...open, options: null });
    expect(s.permissions[0].options).toEqual([]);
  });
});

describe('apply: info', () => {
  it('keeps the title and replaces the controls with the whole new set', () => {
    const controls = { modes: { currentModeId: 'plan', availableModes: [{ id: 'plan', name: 'Plan' }] }, commands: [{ name: 'review' }] };
    const s = replay({ kind: 'info', title: 'Fix the build', controls }, { kind: 'info', title: '', controls: { commands: [] } });
    expect(s.title).toBe('');
    expect(s.controls).toEqual({ commands: [] });
    expect(replay({ kind: 'info', title: 'Fix the build', controls }).controls?.modes?.currentModeId).toBe('plan');
  });

  it("takes the agent's version Go shows, and keeps it when an info event has none", () => {
    const s = replay({ kind: 'info', title: '', agentVersion: '1.18.33' }, { kind: 'info', title: 'Later' });
    expect(s.agentVersion).toBe('1.18.33');
  });
});

describe('apply: state and turn_end', () => {
  it('tracks the state and its message', () => {
    const s = replay({ kind: 'state', state: 'idle' }, { kind: 'state', state: 'failed', message: 'agent crashed' });
    expect(s.state).toBe('failed');
    expect(s.message).toBe('agent crashed');
  });

  it('records turn ends and places the divider after the last entry of the turn', () => {
    const s = replay(
      { kind: 'entry', entry: entry('u1', 'user', { turn: 1 }) },
      { kind: 'entry', entry: entry('a1', 'agent', { turn: 1 }) },
      { kind: 'turn_end', turn: 1, stopReason: 'end_turn' },
      { kind: 'entry', entry: entry('u2', 'user', { turn: 2 }) },
      { kind: 'turn_end', turn: 2, stopReason: 'cancelled', message: 'stopped by user' },
      { kind: 'turn_end', turn: 3, stopReason: 'error', message: 'boom' },
    );
    expect(s.turns).toEqual([
      { turn: 1, stopReason: 'end_turn' },
      { turn: 2, stopReason: 'cancelled', message: 'stopped by user' },
      { turn: 3, stopReason: 'error', message: 'boom' },
    ]);
    const d = turnDividers(s);
    expect(d.after.get('a1')?.stopReason).toBe('end_turn');
    expect(d.after.get('u2')?.stopReason).toBe('cancelled');
    expect(d.after.has('u1')).toBe(false);
    expect(d.orphans.map((t) => t.turn)).toEqual([3]);
  });

  it('keeps the divider above a continued session\'s boundary', () => {
    const s = replay(
      { kind: 'entry', entry: entry('a1', 'agent', { turn: 1 }) },
      { kind: 'turn_end', turn: 1, stopReason: 'end_turn' },
      { kind: 'entry', entry: entry('b1', 'boundary', { turn: 1 }) },
    );
    const d = turnDividers(s);
    expect(d.after.get('a1')?.stopReason).toBe('end_turn');
    expect(d.after.has('b1')).toBe(false);
  });
});

describe('apply: sessions and sequencing', () => {
  it('ignores events for another session', () => {
    const s = emptyState(SID);
    const next = apply(s, { sessionId: 'other', seq: 1, kind: 'state', state: 'idle' });
    expect(next).toBe(s);
  });

  it('detects gaps and stale events', () => {
    const s: TranscriptState = { ...emptyState(SID), seq: 4 };
    const ev = (seq: number): SessionEvent => ({ sessionId: SID, seq, kind: 'state', state: 'idle' });
    expect(isGap(s, ev(5))).toBe(false);
    expect(isGap(s, ev(7))).toBe(true);
    expect(isStale(s, ev(4))).toBe(true);
    expect(isStale(s, ev(5))).toBe(false);
  });

  it('does not mutate its input', () => {
    const s0 = emptyState(SID);
    const frozen = JSON.stringify({ ...s0, index: [...s0.index] });
    applyAll(s0, events({ kind: 'entry', entry: entry('a', 'agent', { text: 'x' }) }, { kind: 'chunk', entryId: 'a', text: 'y' }));
    expect(JSON.stringify({ ...s0, index: [...s0.index].filter(([, i]) => i < s0.entries.length) })).toBe(frozen);
    expect(s0.entries).toHaveLength(0);
    expect(s0.seq).toBe(0);
  });

  it('stays correct when two states branch from the same parent (shared index)', () => {
    const base = replay({ kind: 'entry', entry: entry('a', 'agent') });
    const left = apply(base, { sessionId: SID, seq: 2, kind: 'entry', entry: entry('x', 'agent', { text: 'L' }) });
    const right = apply(base, { sessionId: SID, seq: 2, kind: 'entry', entry: entry('y', 'agent', { text: 'R' }) });
    expect(entryIndex(left, 'x')).toBe(1);
    expect(entryIndex(left, 'y')).toBe(-1);
    expect(entryIndex(right, 'y')).toBe(1);
    expect(entryIndex(right, 'x')).toBe(-1);
    const l2 = apply(left, { sessionId: SID, seq: 3, kind: 'chunk', entryId: 'x', text: '!' });
    expect(l2.entries.map((e) => e.text)).toEqual([undefined, 'L!']);
  });
});

describe('applyAll', () => {
  it('equals apply() over each event, leaves its input alone and copies the entries once', () => {
    const base = replay({ kind: 'entry', entry: entry('a', 'agent', { text: 'A' }) });
    const frozen = base.entries.slice();
    const run = events(
      { kind: 'entry', entry: entry('a', 'agent', { text: 'A' }) },
      { kind: 'chunk', entryId: 'a', text: '1' },
      { kind: 'entry', entry: entry('b', 'thought', { text: 'B' }) },
      { kind: 'chunk', entryId: 'b', text: '2' },
      { kind: 'chunk', entryId: 'a', text: '3' },
      { kind: 'state', state: 'running' },
    ).slice(1);
    const one = run.reduce(apply, base);
    const all = applyAll(base, run);
    expect(all).toEqual(one);
    expect(all.entries.map((e) => `${e.id}:${e.text}`)).toEqual(['a:A13', 'b:B2']);
    expect(base.entries).toEqual(frozen); // not changed in place
    expect(base.entries).not.toBe(all.entries);
    // A second fold from the same parent is not disturbed by the first one's in-place changes.
    expect(applyAll(base, run.slice(0, 1)).entries.map((e) => e.text)).toEqual(['A1']);
  });
});

describe('fromSnapshot', () => {
  const snap: Snapshot = {
    sessionId: SID,
    seq: 42,
    state: 'running',
    agentName: 'Demo agent',
    cwd: '/home/me/project',
    title: 'Add a greeting',
    entries: [entry('u', 'user', { text: 'hi' }), entry('t', 'tool', { status: 'pending' })],
    permissions: [{ requestId: 'r', toolCallId: 't', title: 'Edit', options: null }],
    turns: [{ turn: 1 }],
    stderr: 'warn: something',
  };

  it('builds a state that apply continues from', () => {
    const s = fromSnapshot(snap);
    // The snapshot's facts carry over as they are; the lists are checked below.
    const { entries: _e, permissions: _p, turns: _t, ...facts } = snap;
    expect(s).toMatchObject(facts);
    expect(s.entries.map((e) => e.id)).toEqual(['u', 't']);
    expect(s.permissions[0].options).toEqual([]);
    const next = apply(s, { sessionId: SID, seq: 43, kind: 'entry', entry: entry('t', 'tool', { status: 'completed' }) });
    expect(next.entries).toHaveLength(2);
    expect(next.entries[1].status).toBe('completed');
  });

  it('accepts Go nil slices (null) and a saved session (state "")', () => {
    const s = fromSnapshot({ ...snap, state: '', entries: null, permissions: null, turns: null, stderr: undefined });
    expect(s.state).toBe('');
    expect(s.entries).toEqual([]);
    expect(s.permissions).toEqual([]);
    expect(s.turns).toEqual([]);
    expect(s.decisions).toEqual([]);
  });
});

describe('snapshot decisions', () => {
  it('are read, so a resynced or reopened view still says how each request was answered', () => {
    const state = fromSnapshot({
      sessionId: 's1',
      seq: 4,
      state: 'idle',
      agentName: 'Demo',
      cwd: '/p',
      title: '',
      entries: [],
      permissions: [],
      turns: [],
      decisions: [
        { requestId: '0', toolCallId: 'e3', outcome: 'selected', optionId: 'allow', optionKind: 'allow_once', optionName: 'Allow once', decidedBy: 'user' },
        { requestId: '1', toolCallId: 'e5', outcome: 'cancelled', decidedBy: 'cancel' },
      ],
    });
    expect(state.decisions).toEqual([
      { requestId: '0', toolCallId: 'e3', outcome: 'selected', optionId: 'allow', optionKind: 'allow_once', optionName: 'Allow once', decidedBy: 'user' },
      { requestId: '1', toolCallId: 'e5', outcome: 'cancelled', decidedBy: 'cancel' },
    ]);
  });
});
