// What a live session's row says about it: the engine's state turned into the person's words
// (docs/architecture.md, "UI test contract": live-session's data-state).
//
//   engine state                      row
//   starting                          starting
//   idle                              ready
//   running, ≥ 1 open permission      waiting
//   running, otherwise                working
//   cancelling                        stopping
//   failed / exited                   failed / exited
import type { TranscriptState } from './transcript';

export type LiveStatus = 'starting' | 'ready' | 'working' | 'waiting' | 'stopping' | 'failed' | 'exited';

/** The row's state for a session's transcript state (null, not yet known: starting). */
export function liveStatus(state: Pick<TranscriptState, 'state' | 'permissions'> | null): LiveStatus {
  switch (state?.state) {
    case 'idle':
      return 'ready';
    case 'running':
      return state.permissions.length > 0 ? 'waiting' : 'working';
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
