// How a live session's end is told, in one place, so that the transcript's notice, the composer's
// hint and the turn's divider agree (issue 15: "messages after a stop agree with each other").
//
// - A failed start: the engine's error entry already says what went wrong (in the window's
//   words); the notice does not repeat it, and the composer says what to do next.
// - An agent that exited: one sentence says how (stopped hard, or the engine's exit message:
//   "the agent exited (exit status 1)"; only "The agent has stopped." when it exited during a turn,
//   whose error entry and divider say how), then what to do next: restart it, or start a new one.
//   The composer's hint is that same text.
// A plain Stop ends only the turn (its divider reads Cancelled); the session goes on, so there
// is nothing to tell here.
import type { TranscriptState } from './transcript';

export interface Ending {
  tone: 'failed' | 'exited';
  /** What happened, as a sentence ("" when the transcript's error entry says it already). */
  text: string;
  /** What to do next, as a sentence. */
  next: string;
  /** The agent can be restarted (Restart agent is offered). */
  restart: boolean;
}

/** `text` as a sentence: trimmed, its first letter upper case, a full stop at the end. */
export function sentence(text: string | null | undefined): string {
  const t = (text ?? '').trim();
  if (!t) return '';
  const s = t[0].toUpperCase() + t.slice(1);
  return /[.!?…]$/.test(s) ? s : `${s}.`;
}

/** The engine's message for a turn ended by a hard stop the person asked for (session_turn.go). */
const HARD_STOP = "stopped hard: the agent's processes were killed";

/**
 * How live session `view` ended, or null while it has not (or it is a saved one). `canRestart`:
 * the page offers Restart agent for an exited one.
 */
export function sessionEnding(view: TranscriptState | null, canRestart: boolean): Ending | null {
  if (!view || (view.state !== 'failed' && view.state !== 'exited')) return null;
  if (view.state === 'failed') {
    const last = view.entries[view.entries.length - 1];
    const told = last?.kind === 'error' && (!view.message || last.text?.trim() === view.message.trim());
    return {
      tone: 'failed',
      text: told ? '' : ['The agent did not start.', sentence(view.message)].filter(Boolean).join(' '),
      next: 'Start a new session to try again.',
      restart: false,
    };
  }
  const turn = view.turns[view.turns.length - 1];
  let text: string;
  if (turn?.stopReason === 'interrupted' && (!turn.message || turn.message === HARD_STOP)) {
    text = 'The agent was stopped hard (its processes were killed).';
  } else if (turn?.stopReason === 'interrupted' && turn.message) {
    text = sentence(turn.message);
  } else if (turn?.stopReason === 'error' && view.message && turn.message?.trim() === view.message.trim()) {
    // It exited during a turn: the turn's error entry and divider above say how already.
    text = 'The agent has stopped.';
  } else {
    text = sentence(view.message) || 'The agent exited.';
  }
  return {
    tone: 'exited',
    text,
    next: canRestart ? 'Restart it to go on with this session, or start a new one.' : 'Start a new session to continue.',
    restart: canRestart,
  };
}

/** The composer's hint once the session has ended: what happened, then what to do next. */
export function endedHint(ending: Ending): string {
  return ending.tone === 'failed' ? `The agent did not start. ${ending.next}` : `${ending.text} ${ending.next}`;
}
