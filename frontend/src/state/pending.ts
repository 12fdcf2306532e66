// Every decision waiting on the person, across the live sessions (issue 15: "one place for every
// decision waiting on you"). Today that is the open permission requests; the page has no other
// kind of question an agent can ask. The header's button (components/PendingDecisions.svelte)
// shows the count and lists them; picking one shows its session and focuses its prompt.
import { basename } from '../lib/format';
import type { LiveSession } from './live-sessions.svelte';
import { permissionTitle } from './attention';

/** One open request, as the list shows it. */
export interface PendingDecision {
  sessionId: string;
  requestId: string;
  /** The agent's name ("Agent" when unknown). */
  agent: string;
  /** Which session: its title (or first prompt), else its folder's name. */
  session: string;
  /** What the agent asks for: the request's title, else its tool card's. */
  what: string;
}

/** The open permission requests of `sessions`, in session order, then in the order they were asked. */
export function pendingDecisions(sessions: readonly LiveSession[]): PendingDecision[] {
  const out: PendingDecision[] = [];
  for (const s of sessions) {
    const cur = s.store.current;
    if (!cur || cur.permissions.length === 0) continue;
    const session = s.title || basename(cur.cwd) || cur.cwd || 'Untitled session';
    for (const request of cur.permissions) {
      out.push({
        sessionId: s.id,
        requestId: request.requestId,
        agent: cur.agentName || 'Agent',
        session,
        what: permissionTitle(cur, request),
      });
    }
  }
  return out;
}
