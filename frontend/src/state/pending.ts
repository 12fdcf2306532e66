// Every decision waiting on the person, across the live sessions (issue 15: "one place for every
// decision waiting on you"): the open permission requests and the open elicitations (questions
// the agent asks: a form, or a page to open). The header's button (components/PendingDecisions.svelte)
// shows the count and lists them; picking one shows its session and focuses its prompt.
import { basename } from '../lib/format';
import type { LiveSession } from './live-sessions.svelte';
import { elicitationTitle, permissionTitle } from './attention';
import { entryIndex } from './transcript';

/** One open request, as the list shows it. */
export interface PendingDecision {
  sessionId: string;
  requestId: string;
  /** A permission request or an elicitation (request ids of the two may repeat). */
  kind: 'permission' | 'elicitation';
  /** The agent's name ("Agent" when unknown). */
  agent: string;
  /** Which session: its title (or first prompt), else its folder's name. */
  session: string;
  /** What the agent asks for: the request's title, else its tool card's. */
  what: string;
}

/**
 * The open permission requests and elicitations of `sessions`, in session order, then each
 * session's permissions and then its elicitations, each in the order they were asked.
 */
export function pendingDecisions(sessions: readonly LiveSession[]): PendingDecision[] {
  const out: PendingDecision[] = [];
  for (const s of sessions) {
    const cur = s.store.current;
    if (!cur || (cur.permissions.length === 0 && cur.elicitations.length === 0)) continue;
    const session = s.title || basename(cur.cwd) || cur.cwd || 'Untitled session';
    const agent = cur.agentName || 'Agent';
    for (const request of cur.permissions) {
      out.push({ sessionId: s.id, requestId: request.requestId, kind: 'permission', agent, session, what: permissionTitle(cur, request) });
    }
    for (const id of cur.elicitations) {
      const i = entryIndex(cur, id);
      const entry = i >= 0 ? cur.entries[i] : undefined;
      if (!entry?.elicitation) continue;
      out.push({ sessionId: s.id, requestId: entry.elicitation.requestId, kind: 'elicitation', agent, session, what: elicitationTitle(entry) });
    }
  }
  return out;
}
