package main

import (
	"context"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/hub"
)

// The verbs of Sessions over the set of live sessions: list them (a reloaded page picks them up
// again), close one, cancel one that is starting; and onLive and withLive, the one lookup of "the
// live session" every verb on one shares.

// onLive runs do on live session sessionID. Both failures, a session that is not live (the hub's
// *hub.NoLiveSessionError) and do's own, reach the window worded once (forWindow).
func (c *core) onLive(sessionID string, do func(*acp.Session) error) error {
	_, err := withLive(c, sessionID, func(s *acp.Session) (struct{}, error) { return struct{}{}, do(s) })
	return err
}

// withLive is onLive for a verb with a result: do's, or the zero T when the session is not live.
func withLive[T any](c *core, sessionID string, do func(*acp.Session) (T, error)) (T, error) {
	s, err := c.hub.Session(sessionID)
	if err != nil {
		var zero T
		return zero, forWindow(err)
	}
	v, err := do(s)
	return v, forWindow(err)
}

// closeTimeout bounds CloseSession and CancelStart: the stop ladder's grace periods and the
// save of the last events.
const closeTimeout = 15 * time.Second

// LiveSession is one live session: its agent, folder and state (the engine's: starting, idle,
// running, cancelling, failed, exited).
type LiveSession struct {
	SessionID string `json:"sessionId"`
	AgentID   string `json:"agentId"`
	AgentName string `json:"agentName"`
	Cwd       string `json:"cwd"`
	State     string `json:"state"`
}

// ListLive returns the live sessions of this run, in the order they were started.
func (ss *Sessions) ListLive() []LiveSession {
	return liveSessions(ss.hub.List())
}

// liveSessions words the hub's list for the page.
func liveSessions(list []hub.LiveInfo) []LiveSession {
	out := make([]LiveSession, len(list))
	for i, l := range list {
		out[i] = LiveSession{SessionID: l.SessionID, AgentID: l.AgentID, AgentName: l.AgentName, Cwd: l.Cwd, State: string(l.State)}
	}
	return out
}

// CloseSession ends a live session: a running turn is stopped, its agent stopped and waited
// for (at most 15 s); the history keeps the session. It returns once the agent has gone.
func (ss *Sessions) CloseSession(sessionID string) error {
	ctx, cancel := context.WithTimeout(ss.ctx, closeTimeout)
	defer cancel()
	return forWindow(ss.hub.Close(ctx, sessionID))
}

// CancelStart ends a session that is still starting: its agent is killed and no history row
// is left. It returns once the agent has gone.
func (ss *Sessions) CancelStart(sessionID string) error {
	ctx, cancel := context.WithTimeout(ss.ctx, closeTimeout)
	defer cancel()
	return forWindow(ss.hub.CancelStart(ctx, sessionID))
}
