// The agent's own sessions and logout, from the session header's agent menu, through the whole
// page with mocked bindings (./test/page.ts for the set-up).
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { ManualClock } from './lib/clock';
import { app, emit, settle } from './test/harness';
import { FOLDER, SID } from './test/mocks';
import { info, resetPage, startSession as start, state } from './test/page';

let clock: ManualClock;
const startSession = () => start(clock);

beforeEach(() => {
  clock = resetPage();
});

afterEach(() => cleanup());

const items = () => screen.getAllByTestId('agent-session-item');

async function openList() {
  await fireEvent.click(screen.getByTestId('agent-menu'));
  await fireEvent.click(screen.getByTestId('agent-sessions-open'));
  await settle();
}

describe("the agent's own sessions", () => {
  it('offers only house rules when the agent offers neither its sessions nor a logout', async () => {
    await startSession();
    emit(state('idle'), info({ agentFeatures: {} }));
    await fireEvent.click(screen.getByTestId('agent-menu'));
    expect(screen.getByTestId('agent-house-rules')).toBeTruthy();
    expect(screen.queryByTestId('agent-sessions-open')).toBeNull();
    expect(screen.queryByTestId('agent-logout')).toBeNull();
  });

  it('lists them a page at a time, marks those in the history, and opens one here', async () => {
    app.ListAgentSessions.mockResolvedValueOnce({
      sessions: [
        { sessionId: 'a1', cwd: FOLDER, title: 'Fix the build', savedId: 'ours-1' },
        { sessionId: 'a2', cwd: FOLDER, title: '' },
      ],
      nextCursor: 'c2',
    }).mockResolvedValueOnce({ sessions: [{ sessionId: 'a2', cwd: FOLDER }, { sessionId: 'a3', cwd: '/elsewhere', title: 'Other' }] });
    await startSession();
    emit(state('idle'), info({ agentFeatures: { listSessions: true } }));
    await openList();
    expect(app.ListAgentSessions).toHaveBeenCalledWith(SID, '');
    expect(screen.getByTestId('agent-sessions').textContent).toContain("Demo agent's sessions");
    expect(items().map((i) => i.dataset.agentSessionId)).toEqual(['a1', 'a2']);
    expect(items()[0].dataset.savedId).toBe('ours-1');
    expect(items()[0].textContent).toContain('In your history');
    expect(items()[1].textContent).toContain('Untitled session');
    expect(screen.queryByTestId('agent-session-delete')).toBeNull(); // not offered

    await fireEvent.click(screen.getByTestId('agent-sessions-more'));
    await settle();
    expect(app.ListAgentSessions).toHaveBeenLastCalledWith(SID, 'c2');
    expect(items().map((i) => i.dataset.agentSessionId)).toEqual(['a1', 'a2', 'a3']); // a2 once
    expect(screen.queryByTestId('agent-sessions-more')).toBeNull(); // the last page

    await fireEvent.click(items()[2].querySelector('[data-testid="agent-session-open"]')!);
    await waitFor(() => expect(screen.queryByTestId('agent-sessions')).toBeNull());
    expect(app.OpenAgentSession).toHaveBeenCalledWith(SID, 'a3', '/elsewhere', 'Other');
  });

  it('continues the copy the history holds instead of opening a second one', async () => {
    app.ListAgentSessions.mockResolvedValueOnce({ sessions: [{ sessionId: 'a1', cwd: FOLDER, savedId: 'ours-1' }] });
    await startSession();
    emit(state('idle'), info({ agentFeatures: { listSessions: true } }));
    await openList();
    await fireEvent.click(screen.getByTestId('agent-session-open'));
    await settle();
    expect(app.ContinueSaved).toHaveBeenCalledWith('ours-1');
    expect(app.OpenAgentSession).not.toHaveBeenCalled();
  });

  it("deletes the agent's copy only after a second click, and shows the agent's refusal", async () => {
    app.ListAgentSessions.mockResolvedValueOnce({ sessions: [{ sessionId: 'a1', cwd: FOLDER }, { sessionId: 'a2', cwd: FOLDER }] });
    app.DeleteAgentSession.mockRejectedValueOnce('no such session');
    await startSession();
    emit(state('idle'), info({ agentFeatures: { listSessions: true, deleteSessions: true } }));
    await openList();
    const del = () => items()[0].querySelector<HTMLElement>('[data-testid="agent-session-delete"]')!;
    expect(del().textContent).toBe('Delete from Demo agent');
    await fireEvent.click(del());
    expect(app.DeleteAgentSession).not.toHaveBeenCalled();
    expect(del().textContent).toBe("Delete Demo agent's copy");
    await fireEvent.click(del());
    await settle();
    expect(app.DeleteAgentSession).toHaveBeenCalledWith(SID, 'a1');
    expect(screen.getByRole('alert').textContent).toContain('no such session');
    expect(items()).toHaveLength(2);

    await fireEvent.click(del());
    await fireEvent.click(del());
    await settle();
    expect(items().map((i) => i.dataset.agentSessionId)).toEqual(['a2']);
  });

  it('archives where the agent offers it: one click, and the session leaves the list', async () => {
    app.ListAgentSessions.mockResolvedValueOnce({ sessions: [{ sessionId: 'a1', cwd: FOLDER }, { sessionId: 'a2', cwd: FOLDER }] });
    await startSession();
    emit(state('idle'), info({ agentFeatures: { listSessions: true, archiveSessions: true } }));
    await openList();
    expect(screen.queryByTestId('agent-session-delete')).toBeNull(); // not offered
    await fireEvent.click(items()[1].querySelector<HTMLElement>('[data-testid="agent-session-archive"]')!);
    await settle();
    expect(app.ArchiveAgentSession).toHaveBeenCalledWith(SID, 'a2');
    expect(items().map((i) => i.dataset.agentSessionId)).toEqual(['a1']);
  });

  it('logs out after a question, and says what happens next', async () => {
    await startSession();
    emit(state('idle'), info({ agentFeatures: { logout: true } }));
    await fireEvent.click(screen.getByTestId('agent-menu'));
    expect(screen.queryByTestId('agent-sessions-open')).toBeNull();
    await fireEvent.click(screen.getByTestId('agent-logout'));
    await fireEvent.click(screen.getByTestId('agent-logout-cancel'));
    expect(app.LogoutAgent).not.toHaveBeenCalled();
    await fireEvent.click(screen.getByTestId('agent-menu'));
    await fireEvent.click(screen.getByTestId('agent-logout'));
    await fireEvent.click(screen.getByTestId('agent-logout-ok'));
    await settle();
    expect(app.LogoutAgent).toHaveBeenCalledWith(SID);
    expect(screen.getByTestId('status-note').textContent).toContain('Logged out of Demo agent');
  });
});
