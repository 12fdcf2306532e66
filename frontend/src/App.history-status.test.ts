// The history status bar: saving that fails while the app runs (a full disk), Retry, the
// all-clear, and a history that could not be opened at all.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import App from './App.svelte';
import type { ManualClock } from './lib/clock';
import type { HistoryStatus } from './lib/protocol';
import { app, runtime, settle } from './test/harness';
import { resetPage } from './test/page';

let clock: ManualClock;

beforeEach(() => {
  clock = resetPage();
});
afterEach(() => cleanup());

const FULL = 'Saving the history failed: the disk is full: free some space. Your sessions keep running.';

function tell(status: HistoryStatus) {
  const calls = runtime.EventsOn.mock.calls.filter(([name]) => name === 'history:status');
  if (calls.length === 0) throw new Error('the page did not subscribe to history:status');
  calls[calls.length - 1][1](status);
  flushSync();
}

async function renderApp() {
  render(App, { props: { clock } });
  await waitFor(() => expect(app.HistoryStatus).toHaveBeenCalled());
  await settle();
}

describe('history status', () => {
  it('shows nothing while the history saves', async () => {
    await renderApp();
    expect(screen.queryByTestId('history-status')).toBeNull();
  });

  it('keeps a failure in view, retries on request and gives the all-clear', async () => {
    await renderApp();
    tell({ saving: false, problem: FULL, since: Date.parse('2026-03-10T11:58:00Z') });
    const bar = screen.getByTestId('history-status');
    expect(bar.dataset.saving).toBe('false');
    expect(bar.textContent).toContain('the disk is full: free some space');
    expect(bar.textContent).toContain('Not saving since');

    let finish!: (s: HistoryStatus) => void;
    app.RetryHistory.mockImplementation(() => new Promise<HistoryStatus>((r) => (finish = r)));
    await fireEvent.click(screen.getByTestId('history-retry'));
    expect(app.RetryHistory).toHaveBeenCalledTimes(1);
    expect((screen.getByTestId('history-retry') as HTMLButtonElement).disabled).toBe(true);
    finish({ saving: true });
    await settle();
    expect(screen.getByTestId('history-status').dataset.saving).toBe('true');
    expect(screen.getByTestId('history-status').textContent).toContain('saved again');

    // The event Go sends on the same recovery changes nothing more; the all-clear fades.
    tell({ saving: true });
    expect(screen.getByTestId('history-status').textContent).toContain('saved again');
    clock.advance(8_000);
    flushSync();
    expect(screen.queryByTestId('history-status')).toBeNull();
  });

  it('says why a retry failed and stays', async () => {
    await renderApp();
    tell({ saving: false, problem: FULL, since: 1 });
    app.RetryHistory.mockImplementation(async () => {
      throw 'Saving the history failed: the disk is full: free some space.';
    });
    await fireEvent.click(screen.getByTestId('history-retry'));
    await settle();
    expect(screen.getByTestId('error-banner').textContent).toContain('the disk is full');
    expect(screen.getByTestId('history-status').dataset.saving).toBe('false');
    expect((screen.getByTestId('history-retry') as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows a history that could not be opened in the bar, without Retry and without a second banner', async () => {
    const why = 'history is unavailable (sessions are not being saved): open history database "/x.db": disk full';
    app.HistoryStatus.mockImplementation(async () => ({ saving: false, problem: why }));
    app.HistoryNotice.mockImplementation(async () => why);
    await renderApp();
    expect(screen.getByTestId('history-status').textContent).toContain('not being saved');
    expect(screen.queryByTestId('history-retry')).toBeNull();
    expect(screen.queryByTestId('error-banner')).toBeNull();
  });
});
