// What opening one of an agent's own sessions does (components/AgentSessions.svelte): the copy
// the history holds when there is one — switched to when it is live, continued when saved — and
// otherwise a new session of the history that the agent loads or resumes. Logging out says
// what happens next. Errors reject, for the dialog to show.
import * as api from '../lib/api';
import type { AgentSessionItem, SessionInfo } from '../lib/protocol';

export interface AgentSessionDeps {
  /** Whether the history's session id is live in this window. */
  isLive: (id: string) => boolean;
  /** Shows live session id. */
  select: (id: string) => void;
  /** Shows a session that was just started or continued. */
  showStarted: (info: SessionInfo) => Promise<void>;
}

/** Opens item, listed by live session `from` whose folder is `cwd`. */
export async function openAgentSession(deps: AgentSessionDeps, from: string, cwd: string, item: AgentSessionItem): Promise<void> {
  if (item.savedId && deps.isLive(item.savedId)) {
    deps.select(item.savedId);
    return;
  }
  const info = item.savedId
    ? await api.ContinueSaved(item.savedId)
    : await api.OpenAgentSession(from, item.sessionId, item.cwd || cwd, item.title ?? '');
  await deps.showStarted(info);
}

/** Logs the agent of live session id out; resolves to the note the window shows. */
export async function logoutAgent(id: string, agentName: string): Promise<string> {
  await api.LogoutAgent(id);
  return `Logged out of ${agentName}. Its next prompt asks you to log in again.`;
}
