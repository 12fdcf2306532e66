// The Live group's store, fed the shared golden event files (testdata/events) under two
// interleaved session ids, as the Go side sends two sessions streaming at once.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { flushSync } from 'svelte';
import { describe, expect, it, vi } from 'vitest';
import { manualClock } from '../lib/clock';
import type { SessionEvent, Snapshot } from '../lib/protocol';
import { emptySnapshot } from '../test/mocks';
import { LiveSessions, type LiveInfo } from './live-sessions.svelte';
import type { LiveStatus } from './live-status';
import { applyAll, emptyState } from './transcript';

const dir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../testdata/events');

/** A golden file's events, as session `id`. */
function golden(file: string, id: string): SessionEvent[] {
  const events = JSON.parse(readFileSync(resolve(dir, file), 'utf8')) as SessionEvent[];
  return events.map((e) => ({ ...e, sessionId: id }));
}

/** a and b merged: two of a's events, then one of b's, and so on (the order within each kept). */
function interleave(a: SessionEvent[], b: SessionEvent[]): SessionEvent[] {
  const out: SessionEvent[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    out.push(...a.slice(i, i + 2));
    i += 2;
    if (j < b.length) out.push(b[j++]);
  }
  return out;
}

/** demo_allow's events for `id` up to and with its first state event `state`. */
function upTo(id: string, state: string): SessionEvent[] {
  const evs = golden('demo_allow.json', id);
  return evs.slice(0, evs.findIndex((e) => e.kind === 'state' && e.state === state) + 1);
}

const info = (sessionId: string, agentName = 'Demo agent'): LiveInfo => ({ sessionId, agentId: 'demo', agentName, cwd: `/work/${sessionId}` });

const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
  flushSync();
};

function setup(extra: Partial<ConstructorParameters<typeof LiveSessions>[0]> = {}) {
  const clock = manualClock();
  const deps = {
    clock,
    snapshot: vi.fn(async (id: string): Promise<Snapshot> => emptySnapshot(id)),
    closeSession: vi.fn(async (_id: string) => {}),
    cancelStart: vi.fn(async (_id: string) => {}),
    onTurnEnd: vi.fn(),
    onPermission: vi.fn(),
    onError: vi.fn(),
  };
  return { lives: new LiveSessions({ ...deps, ...extra }), clock, deps };
}

/** The distinct statuses a row went through. */
function track(lives: LiveSessions, ids: string[]) {
  const seen = new Map<string, LiveStatus[]>(ids.map((id) => [id, []]));
  const note = () => {
    for (const id of ids) {
      const list = seen.get(id)!;
      const status = lives.get(id)!.status;
      if (list[list.length - 1] !== status) list.push(status);
    }
  };
  return { seen, note };
}

describe('LiveSessions', () => {
  it('routes two interleaved golden sessions to their rows: each row goes through its true states, neither disturbs the other', async () => {
    const { lives, deps } = setup();
    await lives.open(info('a'));
    await lives.open(info('b'));
    expect(lives.list.map((s) => s.id)).toEqual(['a', 'b']);
    expect(lives.activeId).toBe('b'); // Start never replaces: the new one is shown beside the first

    const a = golden('demo_allow.json', 'a');
    const b = golden('terminal_turn.json', 'b');
    const { seen, note } = track(lives, ['a', 'b']);
    note();
    for (const e of interleave(a, b)) {
      lives.handleAll([e]);
      note();
    }

    expect(seen.get('a')).toEqual(['starting', 'ready', 'working', 'waiting', 'working', 'ready']);
    expect(seen.get('b')).toEqual(['starting', 'ready', 'working', 'ready']);
    // Each folded exactly what a session of its own folds.
    const alone = (evs: SessionEvent[], id: string) => applyAll(emptyState(id, { state: 'starting', agentName: 'Demo agent', cwd: `/work/${id}` }), evs);
    expect(lives.get('a')!.store.current!.entries).toEqual(alone(a, 'a').entries);
    expect(lives.get('b')!.store.current!.entries).toEqual(alone(b, 'b').entries);
    expect(lives.get('a')!.title).toBeTruthy();
    // a was in the background: its permission and its turn end marked it; b is shown.
    expect(lives.get('a')!.unseen).toBe(true);
    expect(lives.get('b')!.unseen).toBe(false);
    expect(deps.onPermission).toHaveBeenCalledTimes(1);
    expect(deps.onPermission.mock.calls[0][0].id).toBe('a');
    expect(deps.onTurnEnd.mock.calls.map((c) => (c[0] as { id: string }).id).sort()).toEqual(['a', 'b']);
    lives.select('a');
    expect(lives.get('a')!.unseen).toBe(false);
  });

  it('folds a batch that mixes both sessions, and drops the events of a session it does not hold', async () => {
    const { lives } = setup();
    await lives.open(info('a'));
    await lives.open(info('b'));
    const mixed = interleave(golden('sample_turn.json', 'a'), golden('demo_allow.json', 'b'));
    lives.handleAll([...mixed, ...golden('terminal_turn.json', 'stranger')]);
    expect(lives.get('a')!.status).toBe('ready');
    expect(lives.get('b')!.status).toBe('ready');
    expect(lives.get('a')!.store.current!.entries.map((e) => e.id)).toEqual(['u1', 't1', 'p1', 'tc1', 'a1']);
    expect(lives.get('stranger')).toBeUndefined();
    expect(lives.list).toHaveLength(2);
  });

  it('switching keeps each session its composer text, drafts and scroll position', async () => {
    const { lives } = setup();
    await lives.open(info('a'));
    const a = lives.active!;
    a.composer.text = 'half a prompt';
    a.composer.drafts.add({ key: 'file:README.md', kind: 'file', name: 'README.md', path: '/work/a/README.md', size: 10 });
    a.scroll.top = 420;
    a.scroll.stuck = false;
    await lives.open(info('b'));
    expect(lives.active!.composer.text).toBe('');
    expect(lives.active!.composer.drafts.list).toEqual([]);
    lives.active!.composer.text = 'another';
    lives.next(-1);
    expect(lives.activeId).toBe('a');
    expect(lives.active!.composer.text).toBe('half a prompt');
    expect(lives.active!.composer.drafts.list.map((d) => d.key)).toEqual(['file:README.md']);
    expect(lives.active!.scroll).toEqual({ top: 420, stuck: false });
    lives.next(1);
    expect(lives.active!.composer.text).toBe('another');
  });

  it('a reused id starts afresh, in the same place, keeping what the person was writing', async () => {
    const { lives } = setup();
    await lives.open(info('a'));
    await lives.open(info('b'));
    lives.handleAll(golden('demo_allow.json', 'a'));
    lives.get('a')!.composer.text = 'unsent';
    await lives.attach(info('a'));
    expect(lives.list.map((s) => s.id)).toEqual(['a', 'b']);
    expect(lives.get('a')!.status).toBe('starting');
    expect(lives.get('a')!.store.current!.entries).toEqual([]);
    expect(lives.get('a')!.composer.text).toBe('unsent');
  });

  // Issue 29: under load, ListLive at page load can answer with a session whose StartSession has
  // not answered yet; the person types into it, then open() attaches the same start again. The
  // prompt being written must survive (it was lost: an empty composer, Send disabled).
  it('a start listed by ListLive before StartSession answers keeps the prompt typed into it', async () => {
    let answer!: (l: LiveInfo[]) => void;
    const { lives } = setup({ listLive: () => new Promise<LiveInfo[]>((r) => (answer = r)) });
    const adopted = lives.adopt();
    answer([info('a')]);
    await adopted;
    expect(lives.activeId).toBe('a');
    lives.active!.composer.text = 'hello';
    lives.active!.composer.drafts.add({ key: 'file:README.md', kind: 'file', name: 'README.md', path: '/work/a/README.md', size: 10 });
    await lives.open(info('a'));
    expect(lives.list.map((s) => s.id)).toEqual(['a']);
    expect(lives.active!.composer.text).toBe('hello');
    expect(lives.active!.composer.drafts.list.map((d) => d.key)).toEqual(['file:README.md']);
  });

  it('next and previous wrap around', async () => {
    const { lives } = setup();
    for (const id of ['a', 'b', 'c']) await lives.open(info(id));
    lives.next(1);
    expect(lives.activeId).toBe('a');
    lives.next(-1);
    expect(lives.activeId).toBe('c');
    lives.next(-1);
    expect(lives.activeId).toBe('b');
  });

  it('close: cancels a start, asks first while a turn runs, else closes at once; the row leaves and the shown one passes on', async () => {
    const { lives, deps } = setup();
    for (const id of ['starting', 'busy', 'idle']) await lives.open(info(id));
    const demo = (id: string) => golden('demo_allow.json', id);
    lives.handleAll(demo('busy').slice(0, demo('busy').findIndex((e) => e.kind === 'permission') + 1));
    lives.handleAll(upTo('idle', 'idle'));
    expect(lives.get('busy')!.status).toBe('waiting');
    expect(lives.get('idle')!.status).toBe('ready');

    lives.requestClose('starting');
    await settle();
    expect(deps.cancelStart).toHaveBeenCalledWith('starting');
    expect(lives.get('starting')).toBeUndefined();

    lives.requestClose('busy');
    expect(lives.confirming).toBe('busy');
    expect(deps.closeSession).not.toHaveBeenCalled();
    await lives.close('busy');
    expect(deps.closeSession).toHaveBeenCalledWith('busy');
    expect(lives.confirming).toBeNull();
    expect(lives.get('busy')).toBeUndefined();

    expect(lives.activeId).toBe('idle');
    lives.requestClose(); // the shown one
    await settle();
    expect(deps.closeSession).toHaveBeenLastCalledWith('idle');
    expect(lives.list).toEqual([]);
    expect(lives.activeId).toBeNull();
  });

  it('a close that fails keeps the row and says why', async () => {
    const { lives, deps } = setup({ closeSession: vi.fn(async () => Promise.reject('the agent did not stop')) });
    await lives.open(info('a'));
    lives.handleAll(upTo('a', 'idle'));
    await lives.close('a');
    expect(lives.get('a')!.closing).toBe(false);
    expect(deps.onError).toHaveBeenCalledWith('the agent did not stop');
  });

  it('adopts the sessions the Go side already has, in its order, and shows the first', async () => {
    const listLive = vi.fn(async () => [
      { ...info('x'), state: 'idle' },
      { ...info('y', 'Claude Code'), state: 'running' },
    ]);
    const snapshot = vi.fn(async (id: string) => emptySnapshot(id, { state: id === 'x' ? 'idle' : 'running', seq: 4 }));
    const { lives } = setup({ listLive, snapshot });
    await lives.adopt();
    expect(lives.list.map((s) => [s.id, s.status])).toEqual([
      ['x', 'ready'],
      ['y', 'working'],
    ]);
    expect(lives.activeId).toBe('x');
    await lives.adopt(); // again: nothing doubled
    expect(lives.list).toHaveLength(2);
  });

  it('runs its clock only while some session runs a turn', async () => {
    const { lives, clock } = setup();
    await lives.open(info('a'));
    expect(lives.runClock()).toBeUndefined();
    lives.handleAll(upTo('a', 'running'));
    expect(lives.ticking).toBe(true);
    const stop = lives.runClock()!;
    const t0 = lives.now;
    clock.advance(3000);
    expect(lives.now - t0).toBe(3000);
    stop();
  });
});
