// The Live group's rows: state, elapsed time on the shared clock (a fake one here), waiting count,
// unseen mark, close (cancel, confirm, at once) and the new-session button.
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { manualClock } from '../lib/clock';
import type { SessionEvent } from '../lib/protocol';
import { LiveSessions } from '../state/live-sessions.svelte';
import { emptySnapshot } from '../test/mocks';
import LiveGroup from './LiveGroup.svelte';

afterEach(cleanup);

function setup() {
  const clock = manualClock();
  const deps = {
    clock,
    snapshot: vi.fn(async (id: string) => emptySnapshot(id, { cwd: `/home/me/src/${id}` })),
    closeSession: vi.fn(async (_id: string) => {}),
    cancelStart: vi.fn(async (_id: string) => {}),
  };
  const lives = new LiveSessions(deps);
  const onSelect = vi.fn((id: string) => lives.select(id));
  const onNew = vi.fn();
  render(LiveGroup, { props: { lives, showingLive: true, onSelect, onNew } });
  const seqs = new Map<string, number>();
  const send = (sessionId: string, ...specs: Record<string, unknown>[]) => {
    lives.handleAll(
      specs.map((spec) => {
        const seq = (seqs.get(sessionId) ?? 0) + 1;
        seqs.set(sessionId, seq);
        return { sessionId, seq, ...spec } as SessionEvent;
      }),
    );
    flushSync();
  };
  const row = (id: string) => screen.getAllByTestId('live-session').find((r) => r.dataset.sessionId === id)!;
  return { lives, clock, deps, send, row, onSelect, onNew };
}

const info = (sessionId: string) => ({ sessionId, agentId: 'demo', agentName: 'Demo agent', cwd: `/home/me/src/${sessionId}` });

describe('LiveSessionRow', () => {
  it('shows the agent, the folder, the first prompt and the state, with the elapsed time while working', async () => {
    const { lives, clock, send, row } = setup();
    await lives.open(info('web'));
    flushSync();
    expect(row('web').dataset.state).toBe('starting');
    expect(row('web').textContent).toContain('Demo agent');
    expect(row('web').textContent).toContain('web');
    expect(row('web').textContent).toContain('New session');

    send('web', { kind: 'state', state: 'idle' });
    expect(row('web').dataset.state).toBe('ready');
    send('web', { kind: 'entry', entry: { id: 'u1', kind: 'user', turn: 1, text: 'fix the login page' } }, { kind: 'state', state: 'running' });
    expect(row('web').dataset.state).toBe('working');
    expect(row('web').textContent).toContain('fix the login page');
    expect(screen.getByTestId('live-session-state').textContent).toBe('working 0 s');

    clock.advance(65_000);
    flushSync();
    expect(screen.getByTestId('live-session-state').textContent).toBe('working 1 min 05 s');

    send('web', { kind: 'permission', requestId: 'r1', toolCallId: 'tc1', title: 'Edit', options: [] });
    expect(row('web').dataset.state).toBe('waiting');
    expect(row('web').dataset.waiting).toBe('1');
    expect(screen.getByTestId('live-session-state').textContent).toBe('1 waiting');

    send('web', { kind: 'permission_done', requestId: 'r1', decision: { requestId: 'r1', toolCallId: 'tc1', outcome: 'cancelled', decidedBy: 'cancel' } }, { kind: 'state', state: 'cancelling' });
    expect(row('web').dataset.state).toBe('stopping');
    send('web', { kind: 'turn_end', turn: 1, stopReason: 'cancelled' }, { kind: 'state', state: 'idle' });
    expect(row('web').dataset.state).toBe('ready');
    // The clock stops with the last turn: advancing it changes nothing any more.
    const before = lives.now;
    clock.advance(10_000);
    expect(lives.now).toBe(before);
  });

  it('marks a background session unseen until it is clicked', async () => {
    const { lives, send, row, onSelect } = setup();
    await lives.open(info('a'));
    await lives.open(info('b'));
    flushSync();
    send('a', { kind: 'state', state: 'idle' }, { kind: 'state', state: 'running' }, { kind: 'turn_end', turn: 1, stopReason: 'end_turn' });
    expect(row('a').dataset.unseen).toBe('true');
    expect(row('b').dataset.unseen).toBeUndefined();
    await fireEvent.click(row('a').querySelector('button')!);
    expect(onSelect).toHaveBeenCalledWith('a');
    expect(row('a').dataset.unseen).toBeUndefined();
    expect(row('a').querySelector('[aria-current=true]')).not.toBeNull();
  });

  it('close cancels a start, asks first while a turn runs, and closes an idle one at once', async () => {
    const { lives, deps, send, row } = setup();
    await lives.open(info('a'));
    await lives.open(info('b'));
    await lives.open(info('c'));
    flushSync();
    send('b', { kind: 'state', state: 'idle' }, { kind: 'state', state: 'running' });
    send('c', { kind: 'state', state: 'idle' });

    await fireEvent.click(row('a').querySelector('[data-testid=close-session]')!);
    expect(deps.cancelStart).toHaveBeenCalledWith('a');

    await fireEvent.click(row('b').querySelector('[data-testid=close-session]')!);
    expect(deps.closeSession).not.toHaveBeenCalled();
    expect(screen.getByTestId('close-confirm')).toBeTruthy();
    await fireEvent.click(screen.getByTestId('close-confirm-ok'));
    expect(deps.closeSession).toHaveBeenCalledWith('b');

    await fireEvent.click(row('c').querySelector('[data-testid=close-session]')!);
    expect(deps.closeSession).toHaveBeenLastCalledWith('c');
    for (let i = 0; i < 10; i++) await Promise.resolve();
    flushSync();
    expect(screen.queryAllByTestId('live-session')).toHaveLength(0);
  });

  it('"+" asks for a new session', async () => {
    const { onNew } = setup();
    await fireEvent.click(screen.getByTestId('new-session'));
    expect(onNew).toHaveBeenCalledTimes(1);
  });
});
