// Subagent sessions (ACP subagent_update): a card where each started in its parent's transcript,
// with its title, state and a button that opens its transcript; Cancel only where the agent lets
// that child be cancelled and the session is live; the sidebar nests each child under its parent.
import { fireEvent, screen, waitFor } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { Subagent } from './lib/protocol';
import { app, emit, ev, settle } from './test/harness';
import { freshPage, historyItem, startSession, state } from './test/page';

const card = (id: string, s: Partial<Subagent>) =>
  ev({ kind: 'entry', entry: { id, kind: 'subagent', turn: 1, subagent: { sessionId: `child-${id}`, parentId: 's1', agentSessionId: `k-${id}`, ...s } } });

describe('subagents', () => {
  const page = freshPage();

  it('shows a card per child, changed in place, with Cancel only where the agent permits it', async () => {
    await startSession(page.clock);
    emit(state('running'), card('e2', { title: 'Explore the repo', state: 'running', cancel: true }), card('e3', { title: 'Review', state: 'running' }));
    const cards = await screen.findAllByTestId('subagent');
    expect(cards.map((c) => [c.dataset.sessionId, c.dataset.parentId])).toEqual([
      ['child-e2', 's1'],
      ['child-e3', 's1'],
    ]);
    expect(cards[0].textContent).toContain('Explore the repo');
    expect(cards[0].textContent).toContain('working');
    const cancel = screen.getAllByTestId('subagent-cancel');
    expect(cancel).toHaveLength(1);
    expect(cancel[0].dataset.sessionId).toBe('child-e2');
    await fireEvent.click(cancel[0]);
    expect(app.CancelSubagent).toHaveBeenCalledWith('s1', 'child-e2');

    emit(card('e2', { title: 'Explore the repo', state: 'idle', stopReason: 'cancelled', cancel: true }));
    await settle();
    expect(screen.getAllByTestId('subagent')[0].dataset.state).toBe('idle');
    expect(screen.queryAllByTestId('subagent-cancel')).toHaveLength(0);
  });

  it("opens a child's transcript from its card, and a saved one shows no Cancel", async () => {
    app.ListHistory.mockImplementation(async () => [historyItem('child-e2', 'Explore'), historyItem('s1', 'Parent')]);
    await startSession(page.clock);
    emit(state('running'), card('e2', { title: 'Explore', state: 'running', cancel: true }));
    await fireEvent.click(await screen.findByTestId('subagent-open'));
    await waitFor(() => expect(app.OpenHistoryPart).toHaveBeenCalledWith('child-e2', expect.any(Number), expect.any(Number)));
  });

  it('offers no Continue on a saved subagent session: its parent runs it', async () => {
    app.ListHistory.mockImplementation(async () => [{ ...historyItem('c1', 'Explore'), subagentOf: 'p' }, historyItem('p', 'Parent')]);
    await startSession(page.clock);
    const rows = await screen.findAllByTestId('history-item');
    await fireEvent.click(rows.find((r) => r.dataset.sessionId === 'c1')!);
    await waitFor(() => expect(app.OpenHistoryPart).toHaveBeenCalledWith('c1', expect.any(Number), expect.any(Number)));
    await settle();
    expect(screen.queryByTestId('continue-session')).toBeNull();
    await fireEvent.click(rows.find((r) => r.dataset.sessionId === 'p')!);
    await waitFor(() => expect(screen.queryByTestId('continue-session')).not.toBeNull());
  });

  it('nests each subagent session under its parent in the sidebar', async () => {
    app.ListHistory.mockImplementation(async () => [
      { ...historyItem('c1', 'Explore'), subagentOf: 'p' },
      historyItem('other', 'Other'),
      { ...historyItem('g1', 'Grep'), subagentOf: 'c1' },
      historyItem('p', 'Parent'),
    ]);
    await startSession(page.clock);
    await waitFor(() => expect(screen.getAllByTestId('history-item')).toHaveLength(4));
    const list = screen.getByTestId('history-list');
    const order = [...list.querySelectorAll<HTMLElement>('[data-testid="history-item"]')].map((b) => b.dataset.sessionId);
    expect(order).toEqual(['other', 'p', 'c1', 'g1']);
    const marks = [...list.querySelectorAll<HTMLElement>('[data-testid="subagent"]')].map((m) => [m.dataset.sessionId, m.dataset.parentId]);
    expect(marks).toEqual([
      ['c1', 'p'],
      ['g1', 'c1'],
    ]);
    const depth = (id: string) => list.querySelector<HTMLElement>(`[data-session-id="${id}"]`)!.closest('li')!.style.getPropertyValue('--depth');
    expect([depth('p'), depth('c1'), depth('g1')]).toEqual(['0', '1', '2']);
  });
});
