// Which colour (a .tone-* class of app.css) a chip or badge wears for what it says.

export type Tone = 'tone-ok' | 'tone-info' | 'tone-warn' | 'tone-bad' | 'tone-neutral';

/** A saved session's outcome (its last stop reason or state): good, cut short, failed, or other. */
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
    default:
      return 'tone-neutral';
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
