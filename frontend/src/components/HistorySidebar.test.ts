// The history list says when it is cut at LIST_LIMIT sessions, and how to reach the rest.
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

async function setup(n: number, query = '') {
  const history = new HistoryStore({ listHistory: async () => items(n) });
  history.query = query;
  await history.refresh();
  render(HistorySidebar, { props: { history, liveIds: new Set<string>(), shownId: null, onOpen: () => {} } });
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
});
