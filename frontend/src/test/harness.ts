// Helpers for component tests; the wailsjs modules must be mocked with ./mocks.ts.
import { flushSync } from 'svelte';
import * as Agents from '../../wailsjs/go/main/Agents.js';
import * as Desktop from '../../wailsjs/go/main/Desktop.js';
import * as History from '../../wailsjs/go/main/History.js';
import * as Logins from '../../wailsjs/go/main/Logins.js';
import * as Registry from '../../wailsjs/go/main/Registry.js';
import * as Rules from '../../wailsjs/go/main/Rules.js';
import * as Sessions from '../../wailsjs/go/main/Sessions.js';
import * as Runtime from '../../wailsjs/runtime/runtime.js';
import type { SessionEvent } from '../lib/protocol';
import { SID, type appMock, type runtimeMock } from './mocks';

/** The mocked bindings, every service's verbs in one object (the same vi.fn), typed as mocks. */
export const app = { ...Sessions, ...Logins, ...History, ...Agents, ...Desktop, ...Rules, ...Registry } as unknown as ReturnType<typeof appMock>;
export const runtime = Runtime as unknown as ReturnType<typeof runtimeMock>;

/** Delivers events to the page's `session:event` listener(s), then flushes Svelte. */
export function emit(...events: SessionEvent[]): void {
  const calls = runtime.EventsOn.mock.calls.filter(([name]) => name === 'session:event');
  if (calls.length === 0) throw new Error('the page did not subscribe to session:event');
  const handler = calls[calls.length - 1][1];
  for (const e of events) handler(e);
  flushSync();
}

/** Delivers events as one message with one payload each, as the Go side sends a batch, then flushes Svelte. */
export function emitBatch(...events: SessionEvent[]): void {
  const calls = runtime.EventsOn.mock.calls.filter(([name]) => name === 'session:event');
  if (calls.length === 0) throw new Error('the page did not subscribe to session:event');
  calls[calls.length - 1][1](...events);
  flushSync();
}

let seq = 0;
/** Events for SID with consecutive seqs (reset with resetSeq()). */
export function ev(spec: Record<string, unknown> & { kind: SessionEvent['kind'] }): SessionEvent {
  seq += 1;
  return { sessionId: SID, seq, ...spec } as SessionEvent;
}
export function resetSeq(): void {
  seq = 0;
}

/** Lets pending promise callbacks (mocked bindings) run, then flushes Svelte. */
export async function settle(rounds = 10): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
  flushSync();
}
