// The live-session store: wraps the transcript reducer with "snapshot, then subscribe".
//
// The page subscribes to `session:event` once (App.svelte) and hands every event to handle().
// Events for a session id this store is not showing are ignored. While a Snapshot call is in
// flight, events are buffered and the ones newer than the snapshot are applied afterwards.
//
// Events can arrive out of order (the dev server's WebSocket does not keep Wails' emit order), so
// an event that skips a seq is held for up to REORDER_WAIT_MS: when the missing ones arrive, all are
// applied in seq order. A gap that is still open then triggers a Snapshot, which replaces the state.
// Turn ends are reported whether they arrive as events or inside a snapshot.
import * as api from '../lib/api';
import { realClock, type Clock } from '../lib/clock';
import { CostTally } from '../lib/cost';
import type { Entry, PermissionEvent, SessionEvent, SessionInfo, Snapshot, Usage } from '../lib/protocol';
import { applyAll, emptyState, fromSnapshot, type TranscriptState } from './transcript';

export interface SessionStoreDeps {
  snapshot?: (sessionId: string) => Promise<Snapshot>;
  clock?: Clock;
  /** A failed Snapshot call etc. */
  onError?: (message: string) => void;
  /** After every turn_end event and when the session exits or fails. */
  onTurnEnd?: (sessionId: string) => void;
  /** After a permission event was applied (once per request, in order; not for a snapshot's). */
  onPermission?: (state: TranscriptState, event: PermissionEvent) => void;
  /** After an elicitation opened (an entry event; once per request, in order; not for a snapshot's). */
  onElicitation?: (state: TranscriptState, entry: Entry) => void;
}

/** After this many consecutive resyncs that still leave a gap, buffered events are applied as-is. */
const MAX_RESYNC = 3;

/** How long an event that skips a seq waits for the missing ones before a resync. */
export const REORDER_WAIT_MS = 200;

/**
 * Splits `events` (sorted here by seq) into the run that follows on from `seq` without a gap,
 * stale ones dropped, and the rest, from the first gap on. With `overGaps` a gap does not stop
 * the run.
 */
function takeRun(events: SessionEvent[], seq: number, overGaps: boolean): { run: SessionEvent[]; rest: SessionEvent[] } {
  const pending = events.sort((a, b) => a.seq - b.seq);
  const run: SessionEvent[] = [];
  for (let i = 0; i < pending.length; i++) {
    const ev = pending[i];
    if (ev.seq <= seq) continue;
    if (ev.seq !== seq + 1 && !overGaps) return { run, rest: pending.slice(i) };
    run.push(ev);
    seq = ev.seq;
  }
  return { run, rest: [] };
}

/** True when `next` ended a turn, or the session, that `prev` had not. */
function endsSomething(prev: TranscriptState, next: TranscriptState): boolean {
  const over = (s: TranscriptState['state']) => s === 'exited' || s === 'failed';
  if (over(next.state) && !over(prev.state)) return true;
  if (prev.turns === next.turns) return false;
  const ended = new Set(prev.turns.filter((t) => t.stopReason).map((t) => t.turn));
  return next.turns.some((t) => t.stopReason && !ended.has(t.turn));
}

export class SessionStore {
  /** The live transcript, or null before any session was started. */
  current = $state.raw<TranscriptState | null>(null);
  /** clock.now() of the last event applied (or of the start). */
  lastEventAt = $state(0);
  /** clock.now() when the state became 'running', else null. */
  runningSince = $state<number | null>(null);
  /** clock.now() when the state became 'cancelling', else null. */
  cancellingSince = $state<number | null>(null);
  /** True while a Snapshot call is in flight. */
  syncing = $state(false);

  readonly #snapshot: (sessionId: string) => Promise<Snapshot>;
  readonly #clock: Clock;
  readonly #onError: (message: string) => void;
  readonly #onTurnEnd: (sessionId: string) => void;
  readonly #onPermission: (state: TranscriptState, event: PermissionEvent) => void;
  readonly #onElicitation: (state: TranscriptState, entry: Entry) => void;
  #buffer: SessionEvent[] = [];
  #resyncs = 0;
  #generation = 0;
  #cancelGapWait: (() => void) | null = null;

  constructor(deps: SessionStoreDeps = {}) {
    this.#snapshot = deps.snapshot ?? api.Snapshot;
    this.#clock = deps.clock ?? realClock;
    this.#onError = deps.onError ?? (() => {});
    this.#onTurnEnd = deps.onTurnEnd ?? (() => {});
    this.#onPermission = deps.onPermission ?? (() => {});
    this.#onElicitation = deps.onElicitation ?? (() => {});
  }

  get sessionId(): string | null {
    return this.current?.sessionId ?? null;
  }

  // Index of the last usage entry, memoised on the entry count (a chunk never adds one); the
  // entry itself is read fresh because usage entries are upserted in place.
  #usageAt = { id: '', count: -1, index: -1 };
  /** The live session's latest usage report (its last usage entry) with the session's cost so far (lib/cost.ts), or null. */
  readonly usage = $derived.by((): Usage | null => {
    const cur = this.current;
    if (!cur) return null;
    const entries = cur.entries;
    if (this.#usageAt.id !== cur.sessionId || this.#usageAt.count !== entries.length) {
      let index = -1;
      for (let i = entries.length - 1; i >= 0; i--) {
        if (entries[i].kind === 'usage') {
          index = i;
          break;
        }
      }
      this.#usageAt = { id: cur.sessionId, count: entries.length, index };
    }
    const usage = this.#usageAt.index >= 0 ? (entries[this.#usageAt.index]?.usage ?? null) : null;
    if (this.#costOf !== cur.sessionId) {
      this.#costOf = cur.sessionId;
      this.#cost.reset();
    }
    // The meter's cost is the session's so far, across the agent sessions it went through.
    const cost = this.#cost.feed(entries);
    return usage && cost ? { ...usage, cost } : usage;
  });
  #cost = new CostTally();
  #costOf = '';

  /** Shows a freshly started session (StartSession resolved): state 'starting', then a snapshot. */
  attach(info: SessionInfo): Promise<void> {
    this.#generation++;
    this.#buffer = [];
    this.#resyncs = 0;
    this.#stopGapWait();
    this.syncing = false;
    this.#set(
      emptyState(info.sessionId, { state: 'starting', agentName: info.agentName, agentVersion: info.agentVersion, cwd: info.cwd }),
    );
    return this.resync();
  }

  /** Forgets the live session. */
  detach(): void {
    this.#generation++;
    this.#buffer = [];
    this.#stopGapWait();
    this.syncing = false;
    this.#set(null);
  }

  /** Feeds one `session:event` payload. */
  handle(event: SessionEvent): void {
    this.handleAll([event]);
  }

  /**
   * Feeds the payloads of one message, in order. Events that follow on without a gap are folded
   * together (applyAll) and the state is written once for them.
   */
  handleAll(events: readonly SessionEvent[]): void {
    const cur = this.current;
    if (!cur) return;
    const mine = events.filter((e) => e.sessionId === cur.sessionId);
    if (mine.length === 0) return;
    this.lastEventAt = this.#clock.now();
    this.#buffer.push(...mine);
    if (this.syncing) return;
    this.#applyReady();
    if (this.#buffer.length > 0) this.#waitForGap();
  }

  /** Replaces the state with Snapshot(sessionId), then applies buffered newer events. */
  async resync(): Promise<void> {
    const cur = this.current;
    if (!cur || this.syncing) return;
    const gen = this.#generation;
    this.#stopGapWait();
    this.syncing = true;
    this.#resyncs++;
    let base: TranscriptState = cur;
    try {
      const snap = await this.#snapshot(cur.sessionId);
      if (gen !== this.#generation) return;
      if (snap && snap.sessionId === cur.sessionId) {
        base = fromSnapshot(snap);
        // Never go back to an older view than the one shown.
        if (base.seq < (this.current?.seq ?? 0)) base = this.current ?? base;
      }
    } catch (err) {
      if (gen !== this.#generation) return;
      this.#onError(api.errorMessage(err));
      this.#resyncs = MAX_RESYNC; // do not loop on a failing Snapshot
    }
    this.syncing = false;
    const before = this.current;
    this.#set(base);
    if (before && before !== base && before.sessionId === base.sessionId && endsSomething(before, base)) {
      this.#onTurnEnd(base.sessionId);
    }
    this.#drain();
  }

  /** Re-reads the snapshot only to refresh the agent's stderr tail (for the stderr view). */
  async refreshStderr(): Promise<void> {
    const cur = this.current;
    if (!cur) return;
    try {
      const snap = await this.#snapshot(cur.sessionId);
      const now = this.current;
      if (!now || now.sessionId !== snap?.sessionId) return;
      this.current = { ...now, stderr: snap.stderr ?? undefined };
    } catch (err) {
      this.#onError(api.errorMessage(err));
    }
  }

  /** After a snapshot: applies the buffered events; a gap left open waits, then resyncs again. */
  #drain(): void {
    const s = this.current;
    if (!s) {
      this.#buffer = [];
      return;
    }
    // After MAX_RESYNC resyncs that still left a gap, the events are applied as-is over it.
    const { run, rest } = takeRun(this.#buffer, s.seq, this.#resyncs >= MAX_RESYNC);
    this.#buffer = rest;
    if (run.length > 0) this.#applyRun(s, run);
    if (rest.length > 0) this.#waitForGap();
    else this.#resyncs = 0;
  }

  /** Applies buffered events that now follow on without a gap; stops waiting once none is left. */
  #applyReady(): void {
    const s = this.current;
    if (!s) return;
    const { run, rest } = takeRun(this.#buffer, s.seq, false);
    this.#buffer = rest;
    if (run.length > 0) {
      this.#resyncs = 0;
      this.#applyRun(s, run);
    }
    if (rest.length === 0) this.#stopGapWait();
  }

  #waitForGap(): void {
    if (this.#cancelGapWait) return;
    const gen = this.#generation;
    this.#cancelGapWait = this.#clock.setTimeout(() => {
      this.#cancelGapWait = null;
      if (gen === this.#generation && this.#buffer.length > 0 && !this.syncing) void this.resync();
    }, REORDER_WAIT_MS);
  }

  #stopGapWait(): void {
    this.#cancelGapWait?.();
    this.#cancelGapWait = null;
  }

  /** Folds a run of events in seq order into the state (one write), then reports what they ended or asked. */
  #applyRun(cur: TranscriptState, run: readonly SessionEvent[]): TranscriptState {
    const next = applyAll(cur, run);
    this.#set(next);
    // Elicitations open through entry events: report those open now that were not before the run.
    const opened = new Set(next.elicitations.length > 0 ? next.elicitations.filter((id) => !cur.elicitations.includes(id)) : []);
    for (const event of run) {
      if (event.kind === 'turn_end') this.#onTurnEnd(next.sessionId);
      else if (event.kind === 'permission') this.#onPermission(next, event);
      else if (event.kind === 'entry' && opened.delete(event.entry.id)) this.#onElicitation(next, event.entry);
      else if (event.kind === 'state' && (event.state === 'exited' || event.state === 'failed')) {
        this.#onTurnEnd(next.sessionId);
      }
    }
    return next;
  }

  #set(next: TranscriptState | null): void {
    const prev = this.current;
    this.current = next;
    const now = this.#clock.now();
    const was = prev?.sessionId === next?.sessionId ? prev?.state : undefined;
    const is = next?.state;
    if (is !== was) {
      this.runningSince = is === 'running' ? now : null;
      this.cancellingSince = is === 'cancelling' ? now : null;
    }
    if (next && prev?.sessionId !== next.sessionId) this.lastEventAt = now;
  }
}
