// Issue 15 in the page: one place for every decision waiting on the person (the header's
// pending-decisions button and its list, across live sessions); Cancel during a start (one calm
// line, no error); a failed start told once, in the session's own view; the notice and the
// composer's hint agree after an agent exited or was stopped hard.
import { fireEvent, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { app, emit, settle } from './test/harness';
import { freshPage } from './test/page';
import { on, renderLivePage, row, rows, startLive } from './test/live';

const page = freshPage();

const pending = () => screen.getByTestId('pending-decisions');
const input = () => screen.getByTestId('composer-input') as HTMLTextAreaElement;

const start = (id: string, idle = true) => (idle ? startLive(id, 'idle') : startLive(id));

/** Session `id` runs a turn whose tool call `title` waits for a permission. */
function ask(id: string, title: string) {
  emit(
    on(id, { kind: 'state', state: 'running' }),
    on(id, { kind: 'entry', entry: { id: `tc-${id}`, kind: 'tool', turn: 1, title, status: 'pending' } }),
    on(id, {
      kind: 'permission',
      requestId: 'r1', // request ids are the agent's, per session: two sessions may both have r1
      toolCallId: `tc-${id}`,
      options: [
        { id: 'ok', name: 'Allow', kind: 'allow_once' },
        { id: 'no', name: 'Reject', kind: 'reject_once' },
      ],
    }),
  );
}

const renderApp = () => renderLivePage(page.clock);

describe('the decisions waiting on you', () => {
  it('counts the open permissions of every live session and jumps to each prompt', async () => {
    await renderApp();
    expect(pending().dataset.count).toBe('0');
    expect(pending().getAttribute('aria-disabled')).toBe('true');
    await fireEvent.click(pending());
    expect(screen.queryAllByTestId('pending-decision')).toHaveLength(0);

    await start('one');
    ask('one', 'Edit main.go');
    await start('two');
    ask('two', 'Run make test');
    expect(pending().dataset.count).toBe('2');

    await fireEvent.click(pending());
    const items = screen.getAllByTestId('pending-decision');
    expect(items.map((i) => [i.dataset.sessionId, i.textContent])).toEqual([
      ['one', expect.stringContaining('Edit main.go')],
      ['two', expect.stringContaining('Run make test')],
    ]);
    expect(items[0].textContent).toContain('Demo agent');
    expect(items[0].textContent).toContain('project'); // the folder, for an untitled session
    expect(document.activeElement).toBe(items[0]);

    // The shown session is the second; picking the first shows it and puts the keyboard on its Allow.
    await fireEvent.click(items[0]);
    await settle();
    expect(screen.queryAllByTestId('pending-decision')).toHaveLength(0);
    expect(row('one').querySelector('[aria-current=true]')).not.toBeNull();
    const focused = document.activeElement as HTMLElement;
    expect(focused.dataset.testid).toBe('permission-option');
    expect(focused.closest<HTMLElement>('[data-testid=permission]')?.dataset.requestId).toBe('r1');
    expect(screen.getByTestId('session-state').textContent).toBe('running');

    // Answered: the count goes down.
    emit(on('one', { kind: 'permission_done', requestId: 'r1', decision: { requestId: 'r1', toolCallId: '', outcome: 'selected', optionId: 'ok', decidedBy: 'user' } }));
    expect(pending().dataset.count).toBe('1');
  });

  it('is keyboard reachable: Enter opens, arrows move, Escape closes and gives the focus back', async () => {
    await renderApp();
    await start('one');
    ask('one', 'Edit a');
    await start('two');
    ask('two', 'Edit b');
    pending().focus();
    await fireEvent.click(pending()); // a button's Enter is its click
    const items = screen.getAllByTestId('pending-decision');
    expect(document.activeElement).toBe(items[0]);
    await fireEvent.keyDown(items[0], { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[1]);
    await fireEvent.keyDown(items[1], { key: 'Escape' });
    expect(screen.queryAllByTestId('pending-decision')).toHaveLength(0);
    expect(document.activeElement).toBe(pending());
    // Escape in the list stopped no turn.
    expect(app.Stop).not.toHaveBeenCalled();
  });
});

describe('a start that is cancelled', () => {
  it('Cancel in the waiting view calls CancelStart; the row goes and one calm line says so', async () => {
    let answer!: () => void;
    app.CancelStart.mockImplementationOnce(() => new Promise<void>((resolve) => (answer = resolve)));
    await renderApp();
    await start('slow', false);
    expect(row('slow').dataset.state).toBe('starting');
    expect(input().placeholder).toBe('Waiting for the agent to start…');
    await fireEvent.click(screen.getByTestId('start-cancel'));
    expect(app.CancelStart).toHaveBeenCalledWith('slow');
    expect(row('slow').dataset.state).toBe('stopping');
    expect(screen.getByTestId('start-cancel').textContent).toContain('Cancelling');

    // The engine ends the start as failed ("the start was cancelled"): that is no failure to show.
    emit(
      on('slow', { kind: 'entry', entry: { id: 'e1', kind: 'error', text: 'the start was cancelled' } }),
      on('slow', { kind: 'state', state: 'failed', message: 'the start was cancelled' }),
    );
    expect(row('slow').dataset.state).toBe('stopping');
    expect(screen.queryByText('the start was cancelled')).toBeNull();
    const historyReads = app.ListHistory.mock.calls.length;
    answer();
    await settle();

    expect(rows()).toHaveLength(0);
    expect(app.ListHistory).toHaveBeenCalledTimes(historyReads + 1); // its row was deleted: read again
    expect(screen.getByTestId('status-note').textContent).toContain('Start cancelled.');
    expect(screen.queryByTestId('error-banner')).toBeNull();
    expect(app.NotifyAttention).not.toHaveBeenCalled();
  });

  it('a start that ended meanwhile stays, and says so in the banner', async () => {
    app.CancelStart.mockRejectedValueOnce(new Error('the agent has started meanwhile: close the session instead'));
    await renderApp();
    await start('quick', false);
    await fireEvent.click(screen.getByTestId('start-cancel'));
    await settle();
    expect(rows()).toHaveLength(1);
    expect(screen.getByTestId('error-message').textContent).toContain('started meanwhile');
    expect(screen.queryByTestId('status-note')).toBeNull();
  });
});

describe('how a session ended, told once', () => {
  it('a failed start: its error entry is the one message; the composer says what to do', async () => {
    await renderApp();
    await start('bad', false);
    const why = 'Demo agent did not answer session/new within 2 min: try again';
    emit(
      on('bad', { kind: 'entry', entry: { id: 'e1', kind: 'error', text: why } }),
      on('bad', { kind: 'state', state: 'failed', message: why }),
    );
    await settle();
    expect(row('bad').dataset.state).toBe('failed');
    expect(screen.getAllByText(why)).toHaveLength(1);
    expect(screen.queryByTestId('session-notice')).toBeNull();
    expect(screen.queryByTestId('error-banner')).toBeNull();
    expect(input().placeholder).toBe('The agent did not start. Start a new session to try again.');
  });

  it('an agent that exited: the notice and the composer agree, in sentences', async () => {
    await renderApp();
    await start('gone');
    emit(on('gone', { kind: 'state', state: 'exited', message: 'the agent exited (exit status 0)' }));
    const notice = screen.getByTestId('session-notice').textContent!.replace(/\s+/g, ' ').trim();
    expect(notice).toContain('The agent exited (exit status 0). Restart it to go on with this session, or start a new one.');
    expect(input().placeholder).toBe('The agent exited (exit status 0). Restart it to go on with this session, or start a new one.');
  });

  it('a hard stop: the divider says interrupted, the notice and the composer that it was stopped hard', async () => {
    await renderApp();
    await start('hard');
    emit(
      on('hard', { kind: 'state', state: 'running' }),
      on('hard', { kind: 'turn_end', turn: 1, stopReason: 'interrupted', message: "stopped hard: the agent's processes were killed" }),
      on('hard', { kind: 'state', state: 'exited', message: 'the agent exited (signal: killed)' }),
    );
    expect(screen.getByTestId('turn-end').dataset.stopReason).toBe('interrupted');
    const said = 'The agent was stopped hard (its processes were killed). Restart it to go on with this session, or start a new one.';
    expect(screen.getByTestId('session-notice').textContent!.replace(/\s+/g, ' ').trim()).toContain(said);
    expect(input().placeholder).toBe(said);
  });
});
