// The virtualised transcript, rendered alone. The test DOM has no layout, so the list renders a
// long transcript's last rows (and its pinned ones) instead of what a viewport would show.
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { Entry, PermissionRequest } from '../lib/protocol';
import { emptyState, fromSnapshot, type TranscriptState } from '../state/transcript';
import Transcript from './Transcript.svelte';

afterEach(cleanup);

/** The transcript renders the events of a frame together, before the paint: wait for it. */
const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

const SID = 's1';

function state(entries: Entry[], extra: Partial<TranscriptState> = {}): TranscriptState {
  return { ...fromSnapshot({ sessionId: SID, entries, state: 'idle' } as never), ...extra };
}

const agent = (i: number): Entry => ({ id: `a${i}`, kind: 'agent', turn: 1, text: `message ${i}` });

function ids(): string[] {
  return [...screen.getByTestId('transcript').querySelectorAll<HTMLElement>('[data-testid=entry]')].map((e) => e.dataset.entryId!);
}

describe('Transcript', () => {
  it('renders a short transcript whole, with the turn divider after its last entry', () => {
    const entries = Array.from({ length: 30 }, (_, i) => agent(i));
    render(Transcript, { props: { view: state(entries, { turns: [{ turn: 1, stopReason: 'end_turn' }] }) } });
    expect(ids()).toEqual(entries.map((e) => e.id));
    const ends = screen.getAllByTestId('turn-end');
    expect(ends).toHaveLength(1);
    expect(ends[0].previousElementSibling?.querySelector('[data-entry-id="a29"]')).toBeTruthy();
  });

  it('ends a turn that changed files with its Changes card, above the divider; a turn that changed none has no card', () => {
    const receipt = (files: number) => ({
      stopReason: 'end_turn',
      startedAt: 0,
      endedAt: 0,
      wallMs: 0,
      changes: { files: Array.from({ length: files }, (_, i) => ({ root: '/p', path: `f${i}.txt`, change: 'added' as const, added: 1, removed: 0 })) },
    });
    const entries: Entry[] = [
      { id: 'a1', kind: 'agent', turn: 1, text: 'one' },
      { id: 'a2', kind: 'agent', turn: 2, text: 'two' },
    ];
    const turns = [
      { turn: 1, stopReason: 'end_turn' as const, receipt: receipt(2) },
      { turn: 2, stopReason: 'end_turn' as const, receipt: receipt(0) },
    ];
    render(Transcript, { props: { view: state(entries, { turns }) } });
    const cards = screen.getAllByTestId('turn-changes');
    expect(cards.map((c) => c.dataset.turn)).toEqual(['1']);
    expect(cards[0].querySelectorAll('[data-testid=changed-file]')).toHaveLength(2);
    expect(cards[0].nextElementSibling?.getAttribute('data-testid')).toBe('turn-end');
    // Without the page's store the card lists its files, with no revert to offer.
    expect(screen.queryByTestId('revert-turn')).toBeNull();
  });

  it('renders the last rows of a long one, and keeps a tool card with an open permission', () => {
    const entries: Entry[] = Array.from({ length: 250 }, (_, i) => agent(i));
    entries[10] = { id: 't10', kind: 'tool', turn: 1, title: 'Edit a.txt', status: 'pending' };
    const permission: PermissionRequest = {
      requestId: 'r1',
      toolCallId: 't10',
      title: 'Edit a.txt',
      options: [{ id: 'ok', name: 'Allow', kind: 'allow_once' }],
    };
    render(Transcript, { props: { view: state(entries, { permissions: [permission], state: 'running' }) } });
    const shown = ids();
    expect(shown).toHaveLength(101);
    expect(shown[0]).toBe('t10');
    expect(shown.slice(1)).toEqual(entries.slice(150).map((e) => e.id));
    const prompt = screen.getByTestId('permission');
    expect(prompt.closest('[data-entry-id="t10"]')).toBeTruthy();
  });

  it('shows the tail (working indicator, notice) after the entries', () => {
    const entries = Array.from({ length: 120 }, (_, i) => agent(i));
    render(Transcript, { props: { view: state(entries, { state: 'running' }), working: { label: 'Working', elapsedMs: 5000 } } });
    const working = screen.getByTestId('working');
    const last = screen.getByTestId('transcript').querySelector('[data-entry-id="a119"]')!;
    expect(last.compareDocumentPosition(working) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('keeps a thought the person opened open after its row left the DOM and came back', async () => {
    const entries: Entry[] = Array.from({ length: 110 }, (_, i) => agent(i));
    entries[30] = { id: 'th', kind: 'thought', turn: 1, text: 'pondering' };
    const { rerender } = render(Transcript, { props: { view: state(entries) } });
    const thought = () => screen.getByTestId('transcript').querySelector('[data-entry-id="th"]');
    expect(thought()?.querySelector('.md')).toBeNull(); // collapsed: not the last entry
    await fireEvent.click(thought()!.querySelector('button')!);
    expect(thought()?.querySelector('.md')).toBeTruthy();

    const more = [...entries, ...Array.from({ length: 30 }, (_, i) => agent(110 + i))];
    await rerender({ view: state(more) });
    await frame();
    expect(thought()).toBeNull(); // out of the last 100 rows

    // The same session again with fewer entries: the row comes back with its cell's UI state.
    await rerender({ view: state(entries.slice(0, 40)) });
    await frame();
    expect(thought()?.querySelector('.md')?.textContent).toContain('pondering');
  });

  it('says how to begin when the session has no entries', () => {
    render(Transcript, { props: { view: emptyState(SID, { state: 'idle' }) } });
    expect(screen.getByTestId('transcript').textContent).toContain('Send a prompt to begin.');
  });
});
