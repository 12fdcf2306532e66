// Shared set-up for the page-level feature tests (freshPage, pageWithFocus, startSession, ...).
// The wailsjs modules are mocked for every test file (./setup.ts, ./mocks.ts).
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import App from '../App.svelte';
import { manualClock, type ManualClock } from '../lib/clock';
import type { Controls, HistoryItem, SessionEvent } from '../lib/protocol';
import { app, ev, resetSeq, runtime, settle } from './harness';
import { FOLDER, appMock } from './mocks';

/** Fresh mocks and seqs; returns the clock to render the page with. Call in beforeEach. */
export function resetPage(): ManualClock {
  resetSeq();
  const fresh = appMock();
  for (const [name, fn] of Object.entries(fresh)) {
    const mocked = app[name as keyof typeof app] as unknown as ReturnType<typeof vi.fn>;
    mocked.mockReset();
    mocked.mockImplementation(fn.getMockImplementation()!);
  }
  runtime.EventsOn.mockClear();
  runtime.ClipboardSetText.mockReset();
  runtime.ClipboardSetText.mockImplementation(async () => true);
  return manualClock(Date.parse('2026-03-10T12:00:00Z'));
}

/**
 * A fresh page before each test of the file, whose window is focused while `focused` is true
 * (document.hasFocus); after each, the page is cleaned up and the mocks restored. Call at the top
 * of a test file; read `clock` in the tests.
 */
export function pageWithFocus(): { clock: ManualClock; focused: boolean } {
  const page = Object.assign(freshPage(), { focused: true });
  beforeEach(() => {
    page.focused = true;
    vi.spyOn(document, 'hasFocus').mockImplementation(() => page.focused);
  });
  afterEach(() => vi.restoreAllMocks());
  return page;
}

/**
 * A fresh page (resetPage) before each test of the file or describe block it is called in, cleaned
 * up after each. Read `clock` from what it returns in the tests.
 */
export function freshPage(): { clock: ManualClock } {
  const page = { clock: manualClock(0) };
  beforeEach(() => {
    page.clock = resetPage();
  });
  afterEach(() => cleanup());
  return page;
}

/** Renders the page and starts a Demo agent session (state 'starting'). */
export async function startSession(clock: ManualClock): Promise<void> {
  render(App, { props: { clock } });
  await waitFor(() => expect(screen.getAllByTestId('agent-option')).toHaveLength(3));
  await waitFor(() => expect((screen.getByTestId('cwd-input') as HTMLInputElement).value).toBe(FOLDER));
  await fireEvent.click(screen.getByTestId('start-session'));
  await waitFor(() => expect(screen.getByTestId('session-state').textContent).toBe('starting'));
  await settle();
}

export function state(s: string): SessionEvent {
  return ev({ kind: 'state', state: s });
}

export function info(controls: Controls, title = ''): SessionEvent {
  return ev({ kind: 'info', title, controls });
}

const MODE_OPTIONS = [
  { value: 'ask', name: 'Ask before edits', description: 'Every edit waits for your permission' },
  { value: 'auto', name: 'Edit automatically', description: 'Edits are applied without asking' },
];

/** What the Demo agent offers: a mode select, a thinking switch and two slash commands. */
export function demoControls(mode = 'ask', thinking = true): Controls {
  return {
    configOptions: [
      { id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: mode, options: MODE_OPTIONS },
      { id: 'thinking', name: 'Think out loud', type: 'boolean', currentValue: thinking },
    ],
    commands: [
      { name: 'review', description: 'Review the project folder', input: { hint: 'what to focus on' } },
      { name: 'plan', description: 'Only make a plan, change nothing' },
    ],
  };
}

export function historyItem(id: string, title: string): HistoryItem {
  return { id, title, agentName: 'Demo agent', cwd: '/home/me/api', createdAt: '2026-03-10T09:00:00Z', updatedAt: '2026-03-10T11:00:00Z', outcome: 'end_turn', turns: 1 };
}
