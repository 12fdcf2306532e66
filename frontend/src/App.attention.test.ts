// Issue #5: while the window is not focused, a permission request (or a turn's end) asks for the
// user's attention through NotifyAttention; focusing the window says AttentionSeen; a click on
// the notification (attention:focus) brings the permission prompt to the keyboard.
import { fireEvent, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';

import type { SessionEvent } from './lib/protocol';
import { app, emit, ev, runtime, settle } from './test/harness';
import { SID } from './test/mocks';
import { historyItem, pageWithFocus, startSession as start, state } from './test/page';

const page = pageWithFocus();
const startSession = () => start(page.clock);

function toolCard(id: string, title: string): SessionEvent {
  return ev({ kind: 'entry', entry: { id, kind: 'tool', turn: 1, toolKind: 'edit', title, status: 'pending' } });
}

function permission(requestId: string, toolCallId: string, title: string): SessionEvent {
  return ev({
    kind: 'permission',
    requestId,
    toolCallId,
    title,
    options: [
      { id: 'reject', name: 'Reject', kind: 'reject_once', verdict: 'reject' },
      { id: 'allow', name: 'Allow', kind: 'allow_once', verdict: 'allow' },
    ],
  });
}

/** Delivers a Go event other than session:event to the page's listener. */
function goEvent(name: string, payload: unknown): void {
  const calls = runtime.EventsOn.mock.calls.filter(([n]) => n === name);
  if (calls.length === 0) throw new Error(`the page did not subscribe to ${name}`);
  calls[calls.length - 1][1](payload);
}

describe('attention while the window is not focused', () => {
  it('notifies a permission request only while the window is not focused', async () => {
    await startSession();
    emit(state('running'), toolCard('e1', 'Edit main.go'), permission('r1', 'e1', 'Edit main.go'));
    expect(app.NotifyAttention).not.toHaveBeenCalled();

    page.focused = false;
    emit(toolCard('e2', 'Run make'), permission('r2', 'e2', 'Run make'));
    expect(app.NotifyAttention).toHaveBeenCalledTimes(1);
    expect(app.NotifyAttention).toHaveBeenCalledWith(SID, 'permission', 'Demo agent', 'Run make');
  });

  it("names the tool card when the request has no title of its own", async () => {
    await startSession();
    page.focused = false;
    emit(state('running'), toolCard('e1', 'Delete build/'), permission('r1', 'e1', ''));
    expect(app.NotifyAttention).toHaveBeenCalledWith(SID, 'permission', 'Demo agent', 'Delete build/');
  });

  it('notifies the end of a turn, and says AttentionSeen once when the window gets the focus back', async () => {
    await startSession();
    emit(state('running'), ev({ kind: 'info', title: 'Fix the build' }));
    page.focused = false;
    emit(ev({ kind: 'turn_end', turn: 1, stopReason: 'end_turn' }));
    expect(app.NotifyAttention).toHaveBeenCalledWith(SID, 'finished', 'Demo agent', 'Fix the build');
    expect(app.AttentionSeen).not.toHaveBeenCalled();

    page.focused = true;
    window.dispatchEvent(new Event('focus'));
    window.dispatchEvent(new Event('focus'));
    await settle();
    expect(app.AttentionSeen).toHaveBeenCalledTimes(1);
  });

  it('does not call AttentionSeen on focus when no attention was asked for', async () => {
    await startSession();
    emit(state('running'), toolCard('e1', 'Edit'), permission('r1', 'e1', 'Edit'));
    window.dispatchEvent(new Event('focus'));
    await settle();
    expect(app.AttentionSeen).not.toHaveBeenCalled();
  });

  it('a click on the notification puts the keyboard on the permission prompt', async () => {
    await startSession();
    // The person was typing, so the prompt did not take the focus when it appeared.
    const input = screen.getByTestId('composer-input');
    input.focus();
    page.focused = false;
    emit(state('running'), toolCard('e1', 'Edit main.go'), permission('r1', 'e1', 'Edit main.go'));
    expect(document.activeElement).toBe(input);

    goEvent('attention:focus', { sessionId: 'someone-else' });
    await settle();
    expect(document.activeElement).toBe(input);

    goEvent('attention:focus', { sessionId: SID });
    await settle();
    const allow = screen.getAllByTestId('permission-option').find((b) => b.dataset.optionId === 'allow');
    expect(allow).toBeTruthy();
    expect(document.activeElement).toBe(allow);
  });

  it('a click on the notification shows the live session when a saved one is open', async () => {
    app.ListHistory.mockImplementation(async () => [historyItem('h1', 'Old one')]);
    await startSession();
    page.focused = false;
    emit(state('running'), toolCard('e1', 'Edit main.go'), permission('r1', 'e1', 'Edit main.go'));
    await fireEvent.click(screen.getAllByTestId('history-item')[0]);
    await settle();
    expect(screen.queryByTestId('permission')).toBeNull();

    goEvent('attention:focus', { sessionId: SID });
    await settle();
    expect(screen.getByTestId('permission').dataset.requestId).toBe('r1');
  });
});
