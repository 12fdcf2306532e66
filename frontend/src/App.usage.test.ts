// The usage view: opened from the history sidebar in place of the transcript, it reads the
// ledger for each grouping (mocked UsageLedger), changes range, notes silent agents, shows
// labels as text, saves CSV, and goes back.
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { ManualClock } from './lib/clock';
import { app, emit } from './test/harness';
import { resetPage, startSession, state } from './test/page';

let clock: ManualClock;

const row = (key: string, label: string, extra = {}) => ({
  key,
  label,
  turns: 2,
  wallMs: 125_000,
  reported: 2,
  tokensIn: 900,
  tokensOut: 300,
  tokensTotal: 1200,
  costs: [{ currency: 'USD', amount: 0.5 }],
  ...extra,
});

beforeEach(() => {
  clock = resetPage();
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(() => null);
  app.UsageLedger.mockImplementation(async (since: string, by: string) => ({
    by,
    since: '',
    rows:
      by === 'day'
        ? [row('2026-12-01', '2026-12-01')]
        : [row(by === 'project' ? '/home/me/web' : 'k1', '<img src=x onerror=alert(1)>', { agent: 'Claude' }), row('k2', 'Quiet', { reported: 0, tokensTotal: 0, costs: [] })],
    total: row('total', 'Total', { turns: since === '7d' ? 3 : 4 }),
    silent: ['Quiet'],
  }));
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('usage view', () => {
  it('opens from the sidebar, shows charts, breakdowns and the silent note, and goes back', async () => {
    await startSession(clock);
    emit(state('idle'));
    await fireEvent.click(screen.getByTestId('usage-open'));
    const view = await screen.findByTestId('usage-view');
    expect(screen.queryByTestId('composer-input')).toBeNull();
    await waitFor(() => expect(screen.getAllByTestId('usage-breakdown')).toHaveLength(3));
    expect((await screen.findByTestId('usage-chart')).querySelectorAll('canvas')).toHaveLength(2);
    expect(app.UsageLedger.mock.calls.map((c) => c.join(':')).sort()).toEqual(['30d:agent', '30d:day', '30d:project', '30d:session']);
    expect(screen.getByTestId('usage-silent').textContent).toContain('Quiet reports no tokens or cost: counted by turns and time only.');
    expect(screen.getByTestId('usage-totals').textContent).toContain('4');
    // Labels are text, never markup.
    expect(view.querySelector('img')).toBeNull();
    expect(view.textContent).toContain('<img src=x onerror=alert(1)>');
    expect(view.textContent).toContain('web');

    app.UsageLedger.mockClear();
    await fireEvent.click(screen.getByTestId('usage-range-7d'));
    await waitFor(() => expect(app.UsageLedger).toHaveBeenCalledWith('7d', 'agent'));
    await waitFor(() => expect(screen.getByTestId('usage-totals').textContent).toContain('3'));

    await fireEvent.click(screen.getByTestId('usage-export'));
    await waitFor(() => expect(app.SaveUsageCSV).toHaveBeenCalledWith('7d', 'session'));
    await fireEvent.click(screen.getByTestId('usage-export-project'));
    await waitFor(() => expect(app.SaveUsageCSV).toHaveBeenCalledWith('7d', 'project'));

    await fireEvent.click(screen.getByTestId('usage-back'));
    await waitFor(() => expect(screen.queryByTestId('usage-view')).toBeNull());
    expect(screen.getByTestId('composer-input')).toBeTruthy();
  });

  it('shows a failure in the error banner', async () => {
    app.UsageLedger.mockImplementation(async () => {
      throw new Error('disk is on fire');
    });
    await startSession(clock);
    await fireEvent.click(screen.getByTestId('usage-open'));
    await waitFor(() => expect(document.body.textContent).toContain('disk is on fire'));
  });
});
