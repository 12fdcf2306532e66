// What a live session's row says about it: the engine's state turned into the person's words
// (docs/architecture.md, "UI test contract": live-session's data-state).
//
//   engine state                      row
//   starting                          starting
//   idle                              ready
//   running, ≥ 1 open permission      waiting
//     or open elicitation
//   running, otherwise                working
//   cancelling                        stopping
//   failed / exited                   failed / exited
import type { TranscriptState } from './transcript';

/** What a session's decisions waiting on the person are read from (elicitations absent: none). */
export type Waiting = Pick<TranscriptState, 'state' | 'permissions'> & { elicitations?: TranscriptState['elicitations'] };

/** How many decisions wait on the person: the open permission requests and open elicitations. */
export function waitingCount(state: Waiting | null | undefined): number {
  return (state?.permissions.length ?? 0) + (state?.elicitations?.length ?? 0);
}

export type LiveStatus = 'starting' | 'ready' | 'working' | 'waiting' | 'stopping' | 'failed' | 'exited';

/** The row's state for a session's transcript state (null, not yet known: starting). */
export function liveStatus(state: Waiting | null): LiveStatus {
  switch (state?.state) {
    case 'idle':
      return 'ready';
    case 'running':
      return waitingCount(state) > 0 ? 'waiting' : 'working';
    case 'cancelling':
      return 'stopping';
    case 'failed':
    case 'exited':
      return state.state;
    default:
      return 'starting';
  }
}

/** True while a turn runs or stops: closing then asks first, and the row shows elapsed time. */
export function turnRunning(status: LiveStatus): boolean {
  return status === 'working' || status === 'waiting' || status === 'stopping';
}

/** A cancel that has not finished after this long offers a hard stop. */
export const HARD_STOP_GRACE_MS = 10_000;
/** The working indicator appears after this much silence while a turn runs. */
export const SILENCE_MS = 2_000;

/** The timings of a live session that the indicators read (SessionStore's). */
export interface TurnClock {
  current: Waiting | null;
  lastEventAt: number;
  runningSince: number | null;
  cancellingSince: number | null;
}

/** The working indicator of the shown session at `now`: its label and elapsed time, or null. */
export function workingIndicator(s: TurnClock, now: number): { label: string; elapsedMs: number } | null {
  const state = s.current?.state;
  if (now - s.lastEventAt <= SILENCE_MS) return null;
  if (state === 'running' && s.runningSince !== null) {
    const waiting = waitingCount(s.current) > 0;
    return { label: waiting ? 'Waiting for your decision' : 'Working', elapsedMs: now - s.runningSince };
  }
  if (state === 'cancelling' && s.cancellingSince !== null) return { label: 'Stopping', elapsedMs: now - s.cancellingSince };
  return null;
}

/** True when a cancel has run longer than the grace period at `now` (Hard stop is offered). */
export function hardStopDue(s: TurnClock, now: number): boolean {
  return s.current?.state === 'cancelling' && s.cancellingSince !== null && now - s.cancellingSince > HARD_STOP_GRACE_MS;
}
