// Helpers for the page tests with several live sessions: events numbered per session, and the
// Live group's rows.
import { screen } from '@testing-library/svelte';
import type { SessionEvent } from '../lib/protocol';

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
