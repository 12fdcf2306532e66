package hub

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"agentdesk/backend/acp"
	"agentdesk/backend/store"
)

// LiveInfo is one live session as a list of them shows it: which agent in which folder, and
// its state now.
type LiveInfo struct {
	SessionInfo
	State acp.State `json:"state"`
}

// List returns the live sessions of this run, in the order they were started. It never waits
// on an agent.
func (h *Hub) List() []LiveInfo {
	type live struct {
		s *acp.Session
		o *startOutcome
	}
	h.mu.Lock()
	all := make([]live, 0, len(h.sessions))
	for id, s := range h.sessions {
		all = append(all, live{s, h.starts[id]}) // every live session has its start
	}
	h.mu.Unlock()
	sort.Slice(all, func(i, j int) bool { return all[i].o.order < all[j].o.order })
	out := make([]LiveInfo, len(all))
	for i, l := range all { // State takes the session's lock: not under h.mu
		out[i] = LiveInfo{SessionInfo: SessionInfo{SessionID: l.s.ID(), AgentID: l.o.agentID, AgentName: l.o.agentName,
			Cwd: l.o.cwd}, State: l.s.State()}
	}
	return out
}

// Busy returns the live sessions that are starting or running a turn (also cancelling one):
// those a quit or a close would cut short.
func (h *Hub) Busy() []LiveInfo {
	var busy []LiveInfo
	for _, l := range h.List() {
		switch l.State {
		case acp.StateStarting, acp.StateRunning, acp.StateCancelling:
			busy = append(busy, l)
		}
	}
	return busy
}

// Close ends live session id: a running turn is stopped, the agent is stopped with the stop
// ladder and waited for (acp.Session.Close), the last events are recorded, and the session
// leaves the hub. The history keeps it, with its outcome. A *NoLiveSessionError when id is not
// live. It blocks until the agent has gone (at most the stop ladder's grace periods).
func (h *Hub) Close(ctx context.Context, id string) error {
	s, lease, err := h.take(id)
	if err != nil {
		return err
	}
	defer h.release(lease) // once its last events are saved (or could not be)
	_ = s.Close()
	if h.store != nil {
		if err := h.store.Writer().Flush(ctx); err != nil {
			return fmt.Errorf("close session %s: save its last events: %w", id, err)
		}
	}
	return nil
}

// CancelStart ends the start of live session id while it is starting: the start's context is
// cancelled (a launch or handshake in progress gives up, and the agent's process group is
// killed), the session is closed and leaves the hub, and its history row is deleted (a start
// that never was is not history). A *NoLiveSessionError when id is not live; ErrStarted when
// its start had already ended (Close it instead). It blocks until the agent has gone.
func (h *Hub) CancelStart(ctx context.Context, id string) error {
	h.mu.Lock()
	o, live := h.starts[id], h.sessions[id] != nil
	h.mu.Unlock()
	if !live || o == nil {
		return &NoLiveSessionError{ID: id}
	}
	select {
	case <-o.done:
		return fmt.Errorf("cancel the start of %s: %w", id, ErrStarted)
	default:
	}
	o.cancel()
	<-o.done // the start gives up at once: its context is done
	if err := h.Discard(ctx, id); err != nil {
		return fmt.Errorf("cancel the start of %s: %w", id, err)
	}
	return nil
}

// Discard closes live session id like Close and deletes its history row: a start that never
// was (cancelled), or one that failed only for want of a login the user then gave (the login
// started a new session). A *NoLiveSessionError when id is not live.
func (h *Hub) Discard(ctx context.Context, id string) error {
	s, lease, err := h.take(id)
	if err != nil {
		return err
	}
	defer h.release(lease)
	_ = s.Close()
	if h.store == nil {
		return nil
	}
	if err := h.store.DeleteSession(ctx, id); err != nil && !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("delete the history row of %s: %w", id, err)
	}
	return nil
}

// take removes session id from the hub and returns it with its lease, which the caller releases
// once the session's last events are saved: nothing looks it up from here on. Its recorder
// stays attached until the session's last events are recorded.
func (h *Hub) take(id string) (*acp.Session, *store.Lease, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	s, ok := h.sessions[id]
	if !ok {
		return nil, nil, &NoLiveSessionError{ID: id}
	}
	lease := h.leases[id]
	delete(h.sessions, id)
	delete(h.recorders, id)
	delete(h.starts, id)
	delete(h.leases, id)
	return s, lease, nil
}

// Show says which live session a window shows: id, or none (""). That session is on screen and
// every other live session off (acp.Session.SetOnScreen), as are the sessions started later,
// until the next Show; off screen, a stream reaches the page and the history in fewer, bigger
// batches. Until the first Show every session is on screen (the command line never calls it).
// An id that is not live is not an error: the window may show a saved session. It never blocks
// on an agent.
func (h *Hub) Show(id string) {
	h.mu.Lock()
	defer h.mu.Unlock() // held throughout, so that two Shows at once leave one of them whole
	h.showing, h.shown = true, id
	for sid, s := range h.sessions {
		s.SetOnScreen(sid == id) // takes only the pump's lock, never waits on it for long
	}
}
