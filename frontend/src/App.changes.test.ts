// The change ledger in the page (issue 17): a saved session's turn that changed files ends with
// its Changes card; the header's Changes button swaps the transcript for the session's Changes
// view (every turn, its card and its reverts) and Back returns; a session that touched the same
// file opens from the card as a history row would.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import App from './App.svelte';
import type { ManualClock } from './lib/clock';
import type { SessionView } from './lib/changes';
import type { Entry, TurnChanges } from './lib/protocol';
import { app, settle } from './test/harness';
import { emptySnapshot } from './test/mocks';
import { historyItem, resetPage } from './test/page';

let clock: ManualClock;

const CHANGES: TurnChanges = { files: [{ root: '/home/me/project', path: 'notes.txt', change: 'modified', added: 1, removed: 1 }] };
const ENTRIES: Entry[] = [
  { id: 'e1', kind: 'user', turn: 1, text: 'edit the notes' },
  { id: 'e2', kind: 'agent', turn: 1, text: 'Done.' },
];

beforeEach(() => {
  clock = resetPage();
  app.ListHistory.mockImplementation(async () => [historyItem('h1', 'Notes'), historyItem('old-1', 'Earlier')]);
  app.OpenHistory.mockImplementation(async (id: string) =>
    emptySnapshot(id, {
      state: '',
      title: id === 'h1' ? 'Notes' : 'Earlier',
      entries: id === 'h1' ? ENTRIES : [{ id: 'x1', kind: 'user', turn: 1, text: 'earlier work' }],
      turns: [{ turn: 1, stopReason: 'end_turn', receipt: { stopReason: 'end_turn', startedAt: 0, endedAt: 0, wallMs: 0, changes: id === 'h1' ? CHANGES : null } }],
    }),
  );
  const view: SessionView = {
    sessionId: 'h1',
    running: false,
    turns: [
      { turn: 1, prompt: 'edit the notes', startedAt: 0, stopReason: 'end_turn', changes: CHANGES, reverts: [] },
      { turn: 2, prompt: 'just talk', startedAt: 0, stopReason: 'end_turn', changes: {}, reverts: [] },
    ],
  };
  app.SessionChanges.mockImplementation(async () => view as never);
  app.FileSessions.mockImplementation(async () => [{ sessionId: 'old-1', title: 'Earlier', agentName: 'Demo agent', turn: 1, change: 'added', at: 0 }]);
});

afterEach(() => cleanup());

async function openSaved() {
  render(App, { props: { clock } });
  await waitFor(() => expect(screen.getAllByTestId('history-item').length).toBe(2));
  await fireEvent.click(screen.getAllByTestId('history-item')[0]);
  await settle();
  await waitFor(() => expect(screen.getByTestId('turn-changes')).toBeTruthy());
}

describe('Changes', () => {
  it('swaps the transcript for the Changes view and back', async () => {
    await openSaved();
    expect(screen.getByTestId('turn-changes').dataset.turn).toBe('1');
    await fireEvent.click(screen.getByTestId('changes-open'));
    await settle();
    expect(app.SessionChanges).toHaveBeenCalledWith('h1');
    expect(screen.queryByTestId('transcript')).toBeNull();
    const turns = screen.getAllByTestId('changes-turn');
    expect(turns.map((t) => t.dataset.turn)).toEqual(['1', '2']);
    expect(turns[0].querySelector('[data-testid=changed-file]')?.getAttribute('data-path')).toBe('notes.txt');
    expect(turns[1].textContent).toContain('No file changed.');

    await fireEvent.click(screen.getByTestId('changes-back'));
    await settle();
    expect(screen.queryByTestId('changes-view')).toBeNull();
    expect(screen.getByTestId('transcript')).toBeTruthy();
  });

  it('opens a session that touched the same file', async () => {
    await openSaved();
    await fireEvent.click(screen.getByTestId('file-sessions'));
    await settle();
    expect(app.FileSessions).toHaveBeenCalledWith('/home/me/project', 'notes.txt');
    await fireEvent.click(screen.getByTestId('file-touch'));
    await settle();
    await waitFor(() => expect(screen.getByTestId('transcript').textContent).toContain('earlier work'));
    expect(screen.queryByTestId('turn-changes')).toBeNull();
  });
});
