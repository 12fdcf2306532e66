// Which colour (a .tone-* class of app.css) a chip or badge wears for what it says.

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
