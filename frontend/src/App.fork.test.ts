// Branching a session (issue 16): each user message offers edit-and-rerun and "fork from here",
// each starting a new linked session (shown at once; the original is left alone); a linked
// session's header links to its parent ("parent deleted" once it is gone); the history marks
// forks and counts them on their parent; the header offers "Continue in…" another agent.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import App from './App.svelte';
import type { ManualClock } from './lib/clock';
import type { Entry, HistoryItem } from './lib/protocol';
import { app, settle } from './test/harness';
import { emptySnapshot } from './test/mocks';
import { historyItem, resetPage } from './test/page';

let clock: ManualClock;

const ENTRIES: Entry[] = [
  { id: 'e1', kind: 'user', turn: 1, text: 'add a note' },
  { id: 'e2', kind: 'agent', turn: 1, text: 'Done.' },
  { id: 'e3', kind: 'user', turn: 2, text: 'and a test' },
];

function showSaved(items: HistoryItem[], entries: Entry[] = ENTRIES) {
  app.ListHistory.mockImplementation(async () => items);
  app.OpenHistory.mockImplementation(async (id: string) => emptySnapshot(id, { state: '', title: 'Fix the build', entries }));
}

beforeEach(() => {
  clock = resetPage();
});

afterEach(() => cleanup());

async function openSaved(index = 0) {
  render(App, { props: { clock } });
  await waitFor(() => expect(screen.getAllByTestId('history-item').length).toBeGreaterThan(index));
  await fireEvent.click(screen.getAllByTestId('history-item')[index]);
  await settle();
  await waitFor(() => expect(screen.getByTestId('continue-session')).toBeTruthy());
}

describe('message actions', () => {
  it('edits a message inline: Escape cancels and leaves it as it was, Enter reruns it in a new session', async () => {
    showSaved([historyItem('h1', 'Fix the build')]);
    await openSaved();
    const edits = screen.getAllByTestId('message-edit');
    expect(edits.map((b) => b.dataset.turn)).toEqual(['1', '2']);
    expect(screen.getAllByTestId('message-fork')).toHaveLength(2);

    await fireEvent.click(edits[1]);
    const area = screen.getByTestId('message-editor').querySelector('textarea')!;
    expect(area.value).toBe('and a test');
    await fireEvent.input(area, { target: { value: 'and two tests' } });
    await fireEvent.keyDown(area, { key: 'Escape' });
    expect(screen.queryByTestId('message-editor')).toBeNull();
    expect(screen.getByText('and a test')).toBeTruthy();
    expect(app.RerunEdited).not.toHaveBeenCalled();

    await fireEvent.click(screen.getAllByTestId('message-edit')[1]);
    const again = screen.getByTestId('message-editor').querySelector('textarea')!;
    await fireEvent.input(again, { target: { value: 'and two tests' } });
    await fireEvent.keyDown(again, { key: 'Enter' });
    await settle();
    expect(app.RerunEdited).toHaveBeenCalledWith('h1', 2, 'and two tests');
    await waitFor(() => expect(screen.getAllByTestId('live-session').map((r) => r.dataset.sessionId)).toEqual(['fork-1']));
  });

  it('keeps the edited text when the rerun fails', async () => {
    app.RerunEdited.mockImplementation(async () => {
      throw 'the agent is gone';
    });
    showSaved([historyItem('h1', 'Fix the build')]);
    await openSaved();
    await fireEvent.click(screen.getAllByTestId('message-edit')[0]);
    const area = screen.getByTestId('message-editor').querySelector('textarea')!;
    await fireEvent.input(area, { target: { value: 'a better note' } });
    await fireEvent.click(screen.getByTestId('message-edit-save'));
    await settle();
    await waitFor(() => expect(screen.getByTestId('error-message').textContent).toContain('the agent is gone'));
    expect(screen.getByTestId('message-editor').querySelector('textarea')!.value).toBe('a better note');
  });

  it('forks from a message', async () => {
    showSaved([historyItem('h1', 'Fix the build')]);
    await openSaved();
    await fireEvent.click(screen.getAllByTestId('message-fork')[0]);
    await settle();
    expect(app.ForkSession).toHaveBeenCalledWith('h1', 1);
    await waitFor(() => expect(screen.getAllByTestId('live-session').map((r) => r.dataset.sessionId)).toEqual(['fork-1']));
  });
});

describe('links', () => {
  const child = (deleted: boolean): HistoryItem => ({
    ...historyItem('c1', 'Fix the build (fork)'),
    parentId: 'p1',
    parentTitle: 'Fix the build',
    parentTurn: 2,
    linkKind: 'fork',
    parentDeleted: deleted,
  });

  it('shows the fork-link in a child header, which opens the parent', async () => {
    showSaved([child(false), { ...historyItem('p1', 'Fix the build'), forks: 1 }]);
    await openSaved(0);
    const link = screen.getByTestId('fork-link');
    expect(link.textContent).toContain('forked from “Fix the build” · turn 2');
    await fireEvent.click(link);
    await settle();
    const opened = [...app.OpenHistory.mock.calls, ...app.OpenHistoryPart.mock.calls].map((c) => c[0]);
    expect(opened).toContain('p1');
    expect(screen.getByTestId('history-fork').dataset.parentId).toBe('p1');
    expect(screen.getByTestId('history-forks').textContent).toContain('1 fork');
  });

  it('says when the parent was deleted, and opens nothing', async () => {
    showSaved([child(true)]);
    await openSaved(0);
    const link = screen.getByTestId('fork-link');
    expect(link.tagName).not.toBe('BUTTON');
    expect(link.textContent).toContain('parent deleted');
  });

  it('links a live session by its forked boundary', async () => {
    const entries: Entry[] = [
      { id: 'e1', kind: 'user', turn: 1, text: 'add a note' },
      { id: 'e2', kind: 'boundary', turn: 1, boundary: { kind: 'forked', link: 'rerun', fromId: 'p9', from: 'Old one', turn: 1 } },
    ];
    showSaved([historyItem('h1', 'Edited')], entries);
    await openSaved(0);
    expect(screen.getByTestId('fork-link').textContent).toContain('edited from “Old one” · turn 1');
    expect(screen.getByTestId('context-boundary').textContent).toContain('Edited and rerun from “Old one”, turn 1');
  });
});

describe('continue in another agent', () => {
  it('offers the other available agents and starts the one picked', async () => {
    showSaved([historyItem('h1', 'Fix the build')]);
    await openSaved();
    await fireEvent.click(screen.getByTestId('continue-in-agent'));
    const picker = screen.getByTestId('continue-agent-picker') as HTMLSelectElement;
    expect(Array.from(picker.options).map((o) => o.value)).toEqual(['claude']); // not its own, not an unavailable one
    await fireEvent.click(screen.getByTestId('continue-in-agent-go'));
    await settle();
    expect(app.ContinueInAgent).toHaveBeenCalledWith('h1', 'claude');
    await waitFor(() => expect(screen.queryByTestId('continue-in-agent-dialog')).toBeNull());
  });
});
