package hub

import (
	"context"
	"errors"
	"fmt"

	"agentdesk/backend/acp"
)

// startOutcome is how one session's start ended: the hub keeps it so that the page, told by a
// "failed" state event, can ask why, and offer the agent's logins when it needs one.
type startOutcome struct {
	done      chan struct{} // closed when the start has ended
	over      chan struct{} // closed when the start's goroutine has returned (CloseAll waits)
	err       error         // set before done is closed
	agentID   string
	agentName string
	cwd       string
	dirs      []string
	cancel    context.CancelFunc // ends the start early (CancelStart); safe to call at any time
	order     uint64             // the hub's count of starts when this one began
	rules     *sessionRules      // the session's acp.Config.Rules (MakeRule)
}

func (o *startOutcome) finish(err error) {
	o.err = err
	close(o.done)
}

// FailedLogin is a session whose agent refused to start, or to take a prompt, without a login:
// which agent, in which folder, and the login methods it offers (Err.Methods).
type FailedLogin struct {
	AgentID string
	Cwd     string
	Dirs    []string // the session's additional folders, to start it again with
	Err     *acp.AuthRequiredError
}

// AuthRequired waits (at most until ctx ends) for the start of session id to end and returns
// the agent's login methods when the agent needs a login: its start failed for that reason, or
// it started and then answered the last prompt so (acp.Session.LoginNeeded). nil, nil when it
// needs none. The "failed" state event can reach the page just before the start has returned
// here, hence the wait.
func (h *Hub) AuthRequired(ctx context.Context, id string) (*FailedLogin, error) {
	h.mu.Lock()
	o, ok := h.starts[id]
	h.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("no session %s was started in this run", id)
	}
	select {
	case <-o.done:
	case <-ctx.Done():
		return nil, fmt.Errorf("session %s is still starting", id)
	}
	var authErr *acp.AuthRequiredError
	if errors.As(o.err, &authErr) {
		return &FailedLogin{AgentID: o.agentID, Cwd: o.cwd, Dirs: o.dirs, Err: authErr}, nil
	}
	if o.err == nil {
		if s, err := h.Session(id); err == nil {
			if authErr := s.LoginNeeded(); authErr != nil {
				return &FailedLogin{AgentID: o.agentID, Cwd: o.cwd, Dirs: o.dirs, Err: authErr}, nil
			}
		}
	}
	return nil, nil
}

// StartError waits (at most until ctx ends) for the start of session id and returns why it
// failed; nil when it started, when ctx ended first, or when id was not started in this run.
// The command line calls it after a "failed" state event to say what to do about the failure.
func (h *Hub) StartError(ctx context.Context, id string) error {
	h.mu.Lock()
	o, ok := h.starts[id]
	h.mu.Unlock()
	if !ok {
		return nil
	}
	select {
	case <-o.done:
		return o.err
	case <-ctx.Done():
		return nil
	}
}
