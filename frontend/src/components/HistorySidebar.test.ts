// The history list says when it is cut at LIST_LIMIT sessions, and how to reach the rest; a
// live session's saved copy reads as live, under its live title.
import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { HistoryItem } from '../lib/protocol';
import { HistoryStore, LIST_LIMIT } from '../state/history.svelte';
import HistorySidebar from './HistorySidebar.svelte';

function items(n: number): HistoryItem[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `s${i}`,
    title: `Session ${i}`,
    agentName: 'Demo agent',
    cwd: '/tmp/p',
    createdAt: '2026-12-01T10:00:00Z',
    updatedAt: '2026-12-01T10:00:00Z',
    outcome: 'completed',
    turns: 1,
  }));
}

async function setup(n: number, query = '', liveIds = new Map<string, string>(), list = items(n)) {
  const history = new HistoryStore({ listHistory: async () => list });
  history.query = query;
  await history.refresh();
  render(HistorySidebar, { props: { history, liveIds, shownId: null, onOpen: () => {} } });
}

afterEach(cleanup);

describe('HistorySidebar', () => {
  it('says nothing more when the list is whole', async () => {
    await setup(LIST_LIMIT - 1);
    expect(screen.getAllByTestId('history-item')).toHaveLength(LIST_LIMIT - 1);
    expect(screen.queryByTestId('history-more')).toBeNull();
  });

  it('says a full list holds the newest sessions and that search finds older ones', async () => {
    await setup(LIST_LIMIT);
    expect(screen.getByTestId('history-more').textContent).toContain(`The ${LIST_LIMIT} newest sessions: search to find older ones.`);
  });

  it('says a full search result holds the best matches', async () => {
    await setup(LIST_LIMIT, 'parser');
    expect(screen.getByTestId('history-more').textContent).toContain(`The ${LIST_LIMIT} best matches`);
  });

  it('shows a live session under its live title, without the saved copy\'s passing state', async () => {
    const list = items(3);
    list[0] = { ...list[0], title: 'New session', outcome: 'running' };
    list[1] = { ...list[1], outcome: 'cancelled' };
    await setup(3, '', new Map([['s0', 'run the tests'], ['s1', 'Session 1']]), list);
    const [live, stopped, saved] = screen.getAllByTestId('history-item');
    expect(live.textContent).toContain('run the tests');
    expect(live.textContent).toContain('live');
    expect(live.textContent).not.toContain('running');
    expect(stopped.textContent).toContain('cancelled'); // the last turn's stop reason stays
    expect(saved.textContent).toContain('completed');
    expect(saved.textContent).not.toContain('live');
  });
});
