// The quit question: the window's close held by the Go side (app_quit.go) shows the sessions a
// quit would cut short; "Stop them and quit" confirms, "Keep working" and Escape cancel.
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { app, runtime } from '../test/harness';
import QuitConfirm from './QuitConfirm.svelte';

/** Delivers an app:quit-request as the Go side sends it. */
function askToQuit(sessions: { sessionId: string; agentName: string; cwd: string; state: string }[]) {
  const calls = runtime.EventsOn.mock.calls.filter(([name]) => name === 'app:quit-request');
  if (calls.length === 0) throw new Error('the dialog did not subscribe to app:quit-request');
  calls[calls.length - 1][1]({ sessions: sessions.map((s) => ({ agentId: 'demo', ...s })) });
  flushSync();
}

describe('QuitConfirm', () => {
  beforeEach(() => {
    app.ConfirmQuit.mockClear();
    app.CancelQuit.mockClear();
  });
  afterEach(() => cleanup());

  it('lists the sessions at work and quits only when confirmed', async () => {
    render(QuitConfirm);
    expect(screen.queryByTestId('quit-confirm')).toBeNull();
    askToQuit([
      { sessionId: 's1', agentName: 'Claude Code', cwd: '/src/web', state: 'running' },
      { sessionId: 's2', agentName: 'Demo agent', cwd: '/tmp/x', state: 'starting' },
    ]);
    const rows = screen.getAllByTestId('quit-session');
    expect(rows.map((r) => r.dataset.sessionId)).toEqual(['s1', 's2']);
    expect(rows[0].textContent).toContain('web');
    expect(rows[0].textContent).toContain('running a turn');
    expect(rows[1].textContent).toContain('starting');
    expect(screen.getByTestId('quit-confirm').textContent).toContain('These 2 agents are still at work');
    expect(document.activeElement).toBe(screen.getByTestId('quit-confirm-ok'));
    await fireEvent.click(screen.getByTestId('quit-confirm-ok'));
    expect(app.ConfirmQuit).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId('quit-confirm')).toBeNull();
  });

  it('Keep working and Escape cancel, so the next close asks again', async () => {
    render(QuitConfirm);
    askToQuit([{ sessionId: 's1', agentName: 'Demo agent', cwd: '/tmp/x', state: 'running' }]);
    expect(screen.getByTestId('quit-confirm').textContent).toContain('This agent is still at work');
    await fireEvent.click(screen.getByTestId('quit-confirm-cancel'));
    expect(app.CancelQuit).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId('quit-confirm')).toBeNull();
    askToQuit([{ sessionId: 's1', agentName: 'Demo agent', cwd: '/tmp/x', state: 'running' }]);
    await fireEvent.keyDown(window, { key: 'Escape' });
    expect(app.CancelQuit).toHaveBeenCalledTimes(2);
    expect(app.ConfirmQuit).not.toHaveBeenCalled();
  });
});
