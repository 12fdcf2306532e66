package main

import "agentdesk/backend/acp"

// CancelSubagent asks the agent of live session sessionID to cancel the current work of its
// subagent subagentID (the id its subagent card and saved session carry), where the agent permits
// it for that child (the card's cancel): the session and its other subagents run on. It does not
// wait for the agent; the child's card shows what it reports next.
func (ss *Sessions) CancelSubagent(sessionID, subagentID string) error {
	return ss.onLive(sessionID, func(s *acp.Session) error { return s.CancelSubagent(subagentID) })
}
