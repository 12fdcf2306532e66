// Which colour a status wears for what it says: a .tone-* class of app.css paints a chip, badge or
// note with it; a .hue-* class only sets it (variables) for a component's dots, marks and lines.

export type Tone = 'tone-ok' | 'tone-info' | 'tone-warn' | 'tone-bad' | 'tone-neutral';

/** A saved session's outcome (store/rows.go: ready or running while live, then its last stop reason,
 * or ended, exited, failed, interrupted): good, cut short, failed, live, or other. */
export function outcomeTone(outcome: string): Tone {
  switch (outcome) {
    case 'end_turn':
    case 'completed':
    case 'idle':
    case 'ok':
      return 'tone-ok';
    case 'cancelled':
    case 'max_tokens':
    case 'max_turn_requests':
    case 'refusal':
      return 'tone-warn';
    case 'error':
    case 'failed':
    case 'interrupted':
      return 'tone-bad';
    case 'ready':
    case 'running':
      return 'tone-info';
    default:
      return 'tone-neutral'; // ended, exited and what a newer agentdesk may write
  }
}

/** A tool call's status (pending, in_progress, completed, failed, cancelled, incomplete). */
export function toolStatusTone(status: string): Tone {
  switch (status) {
    case 'in_progress':
      return 'tone-info';
    case 'completed':
      return 'tone-ok';
    case 'failed':
      return 'tone-bad';
    case 'cancelled':
      return 'tone-warn';
    default:
      return 'tone-neutral';
  }
}

/** A live session's engine state (SessionState): settled, a turn running, stopping, failed;
 * starting and exited are neutral. */
export function stateTone(state: string): Tone {
  return STATE_TONES[state] ?? 'tone-neutral';
}
const STATE_TONES: Record<string, Tone> = { idle: 'tone-ok', running: 'tone-info', cancelling: 'tone-warn', failed: 'tone-bad' };

/** The colour alone (a .hue-* class of app.css: variables, no paint) of a live row's status
 * (live-status.ts): ready, working, waiting on you, failed; '' for the others (their own look). */
export function liveHue(status: string): string {
  return LIVE_HUES[status] ?? '';
}
const LIVE_HUES: Record<string, string> = { ready: 'hue-ok', working: 'hue-info', waiting: 'hue-warn', failed: 'hue-bad' };

/** The colour alone (.hue-*) of a closed permission: cancelled, allowed, rejected; '' otherwise. */
export function decisionHue(d: { outcome?: string; verdict?: string }): string {
  if (d.outcome === 'cancelled') return 'hue-warn';
  return d.verdict === 'allow' ? 'hue-ok' : d.verdict === 'reject' ? 'hue-bad' : '';
}

/** How an elicitation ended (its state): accepted or completed, refused as invalid; else neutral. */
export function elicitationTone(state: string): Tone {
  if (state === 'accepted' || state === 'completed') return 'tone-ok';
  return state === 'invalid' ? 'tone-bad' : 'tone-neutral';
}

/** A changed file's change: added, deleted, renamed; a modified one is neutral. */
export function changeTone(change: string): Tone {
  return change === 'added' ? 'tone-ok' : change === 'deleted' ? 'tone-bad' : change === 'renamed' ? 'tone-info' : 'tone-neutral';
}
