// Helpers for the page tests with several live sessions: events numbered per session, and the
// Live group's rows.
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { expect } from 'vitest';
import App from '../App.svelte';
import type { ManualClock } from '../lib/clock';
import type { SessionEvent } from '../lib/protocol';
import { app, emit, settle } from './harness';
import { FOLDER } from './mocks';

const seqs = new Map<string, number>();

/** An event of session `sessionId`, with the next seq of that session. */
export function on(sessionId: string, spec: Record<string, unknown>): SessionEvent {
  const seq = (seqs.get(sessionId) ?? 0) + 1;
  seqs.set(sessionId, seq);
  return { sessionId, seq, ...spec } as SessionEvent;
}

/** Starts every session's seqs again (call it before each test). */
export function resetSeqs(): void {
  seqs.clear();
}

/** The Live group's rows, in start order. */
export const rows = (): HTMLElement[] => screen.queryAllByTestId('live-session');

/** The Live group's row of session `id`. */
export const row = (id: string): HTMLElement => rows().find((r) => r.dataset.sessionId === id)!;

/** Renders the page with every session's seqs from 1 again, once it has filled in the folder. */
export async function renderLivePage(clock: ManualClock): Promise<void> {
  resetSeqs();
  render(App, { props: { clock } });
  await waitFor(() => expect((screen.getByTestId('cwd-input') as HTMLInputElement).value).toBe(FOLDER));
}

/** Starts a Demo agent session whose id is `id` with the Start button; then it reports `states`, in one message. */
export async function startLive(id: string, ...states: string[]): Promise<void> {
  app.StartSession.mockImplementationOnce(async (agentId: string, cwd: string) => ({ sessionId: id, agentId, agentName: 'Demo agent', cwd }));
  await fireEvent.click(screen.getByTestId('start-session'));
  await settle();
  if (states.length > 0) emit(...states.map((state) => on(id, { kind: 'state', state })));
}
