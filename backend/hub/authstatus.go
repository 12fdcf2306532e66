package hub

import "agentdesk/backend/acp"

// The agents' sign-in states, as each last said in a session of this process (acp.AuthStatus:
// auth/status after initialize, its updates, claude-agent-acp's _auth/status_update), for the
// agent picker to show before the next start. Kept in memory: a state is the agent's word at a
// moment, and the next session asks again.

// noteAuthStatus records agentID's sign-in state. It never blocks (acp.Config.OnAuthStatus).
func (h *Hub) noteAuthStatus(agentID string, st acp.AuthStatus) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.auth == nil {
		h.auth = map[string]acp.AuthStatus{}
	}
	h.auth[agentID] = st
}

// AuthStatusOf returns the sign-in state agentID last reported, ok false when none of its
// sessions in this process has said.
func (h *Hub) AuthStatusOf(agentID string) (st acp.AuthStatus, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	st, ok = h.auth[agentID]
	return st, ok
}
