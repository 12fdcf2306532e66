// Several live sessions in the page: Start adds one beside the others, the Live group switches
// between them without losing the composer's text, the first session's events still reach it,
// the actions aim at the shown one, a history row of a live session selects its live row, and a
// reloaded page adopts the sessions the Go side has (ListLive); the Go side knows which one is on
// screen (Show).
import { fireEvent, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { app, emit, settle } from './test/harness';
import { FOLDER, emptySnapshot } from './test/mocks';
import { freshPage } from './test/page';
import { on, renderLivePage, row, rows, startLive } from './test/live';

const page = freshPage();

const input = () => screen.getByTestId('composer-input') as HTMLTextAreaElement;

const start = (id: string) => startLive(id, 'idle');
const renderApp = () => renderLivePage(page.clock);

describe('several live sessions', () => {
  it('Start opens a second session beside the first, which stays live and answerable', async () => {
    await renderApp();
    await start('one');
    emit(
      on('one', { kind: 'state', state: 'running' }),
      on('one', { kind: 'entry', entry: { id: 'tc', kind: 'tool', turn: 1, title: 'Edit', status: 'pending' } }),
      on('one', { kind: 'permission', requestId: 'r1', toolCallId: 'tc', title: 'Edit', options: [{ id: 'ok', name: 'Allow', kind: 'allow_once' }] }),
    );
    await start('two');
    expect(rows().map((r) => [r.dataset.sessionId, r.dataset.state])).toEqual([
      ['one', 'waiting'],
      ['two', 'ready'],
    ]);
    expect(screen.getByTestId('session-state').textContent).toBe('idle');

    // Back to the first: its prompt is there and the answer goes to it.
    await fireEvent.click(row('one').querySelector('button')!);
    expect(screen.getByTestId('session-state').textContent).toBe('running');
    await fireEvent.click(screen.getByTestId('permission-option'));
    expect(app.AnswerPermission).toHaveBeenCalledWith('one', 'r1', 'ok');
  });

  it('switching keeps each composer its text, and Send goes to the shown session', async () => {
    await renderApp();
    await start('one');
    await fireEvent.input(input(), { target: { value: 'for the first' } });
    await start('two');
    expect(input().value).toBe('');
    await fireEvent.input(input(), { target: { value: 'for the second' } });
    await fireEvent.click(row('one').querySelector('button')!);
    expect(input().value).toBe('for the first');
    await fireEvent.keyDown(window, { key: 'PageDown', ctrlKey: true });
    expect(input().value).toBe('for the second');
    await fireEvent.click(screen.getByTestId('send'));
    await settle();
    expect(app.Prompt).toHaveBeenCalledWith('two', 'for the second');
  });

  it('a history row of a live session selects its live row; Ctrl+W closes the shown one', async () => {
    app.ListHistory.mockImplementation(async () => [
      { id: 'one', title: 'first', agentName: 'Demo agent', cwd: FOLDER, createdAt: '2026-03-10T11:00:00Z', updatedAt: '2026-03-10T11:00:00Z', turns: 0, outcome: 'ready' },
    ]);
    await renderApp();
    await start('one');
    await start('two');
    const item = screen.getAllByTestId('history-item').find((i) => i.dataset.sessionId === 'one')!;
    await fireEvent.click(item);
    expect(app.OpenHistory).not.toHaveBeenCalled();
    expect(row('one').querySelector('[aria-current=true]')).not.toBeNull();
    await fireEvent.keyDown(window, { key: 'w', ctrlKey: true });
    await settle();
    expect(app.CloseSession).toHaveBeenCalledWith('one');
    expect(rows().map((r) => r.dataset.sessionId)).toEqual(['two']);
  });

  it('tells the Go side which live session is on screen, and when none is', async () => {
    await renderApp();
    await start('one');
    await start('two');
    await settle();
    expect(app.Show).toHaveBeenLastCalledWith('two');
    await fireEvent.click(row('one').querySelector('button')!);
    await settle();
    expect(app.Show).toHaveBeenLastCalledWith('one');
    await fireEvent.keyDown(window, { key: 'w', ctrlKey: true });
    await settle();
    expect(app.Show).toHaveBeenLastCalledWith('two');
    await fireEvent.keyDown(window, { key: 'w', ctrlKey: true });
    await settle();
    expect(app.Show).toHaveBeenLastCalledWith('');
  });

  it('a reloaded page adopts the live sessions the Go side has', async () => {
    app.ListLive.mockImplementation(async () => [
      { sessionId: 'x', agentId: 'demo', agentName: 'Demo agent', cwd: FOLDER, state: 'idle' },
      { sessionId: 'y', agentId: 'demo', agentName: 'Demo agent', cwd: FOLDER, state: 'running' },
    ]);
    app.Snapshot.mockImplementation(async (id: string) => emptySnapshot(id, { state: id === 'x' ? 'idle' : 'running' }));
    await renderApp();
    await settle();
    expect(rows().map((r) => [r.dataset.sessionId, r.dataset.state])).toEqual([
      ['x', 'ready'],
      ['y', 'working'],
    ]);
    expect(screen.getByTestId('session-state').textContent).toBe('idle');
  });
});
