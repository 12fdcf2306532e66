// Continue a saved session: its header offers Continue, which makes it live again under its id
// (Sessions.ContinueSaved) in place of the saved view; a failure goes to the error banner.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import App from './App.svelte';
import type { ManualClock } from './lib/clock';
import { app, settle } from './test/harness';
import { historyItem, resetPage } from './test/page';

let clock: ManualClock;

beforeEach(() => {
  clock = resetPage();
  app.ListHistory.mockImplementation(async () => [historyItem('h1', 'Fix the build')]);
});

afterEach(() => cleanup());

async function openSaved() {
  render(App, { props: { clock } });
  await waitFor(() => expect(screen.getAllByTestId('history-item')).toHaveLength(1));
  await fireEvent.click(screen.getByTestId('history-item'));
  await settle();
  await waitFor(() => expect(screen.getByTestId('continue-session')).toBeTruthy());
}

describe('continue a saved session', () => {
  it('makes it live again under its id, in place of the saved view', async () => {
    await openSaved();
    expect(screen.getByTestId('back-to-live')).toBeTruthy();
    await fireEvent.click(screen.getByTestId('continue-session'));
    await settle();
    expect(app.ContinueSaved).toHaveBeenCalledWith('h1');
    await waitFor(() => expect(screen.getAllByTestId('live-session').map((r) => r.dataset.sessionId)).toEqual(['h1']));
    expect(screen.queryByTestId('back-to-live')).toBeNull(); // the saved view closed
  });

  it('says why when it cannot', async () => {
    app.ContinueSaved.mockImplementation(async () => {
      throw 'folder "/home/me/api" does not exist: choose an existing project folder';
    });
    await openSaved();
    await fireEvent.click(screen.getByTestId('continue-session'));
    await settle();
    await waitFor(() => expect(screen.getByTestId('error-message').textContent).toContain('does not exist'));
    expect(screen.queryAllByTestId('live-session')).toHaveLength(0);
  });
});
