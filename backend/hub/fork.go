package hub

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"agentdesk/backend/acp"
	"agentdesk/backend/store"
)

// ErrBadFork: a Fork request that cannot be followed (unknown link kind, no such turn, an empty
// edited message); the error wrapping it says which.
var ErrBadFork = errors.New("cannot branch the session there")

// MaxRerunText bounds the edited message of a rerun, in bytes.
const MaxRerunText = 1 << 20

// ForkRequest says which session to branch, where and how (see Fork).
type ForkRequest struct {
	SessionID string // the parent, saved or live
	Link      string // acp.LinkFork, acp.LinkRerun or acp.LinkContinueAgent
	// Turn is the parent's turn (a user message's turn) to branch at: a fork keeps it, a rerun
	// replaces its message with Text. Continue-agent ignores it and takes the whole transcript.
	Turn    int
	Text    string // rerun: the edited message, sent as the new session's first turn
	AgentID string // continue-agent: the agent to continue in ("" or any other: the parent's)

	HardStopAfter time.Duration
	RawEvents     bool
}

// Fork starts a new session linked to a saved or live one (the parent, left untouched): a fork
// from turn N (its transcript up to and with turn N), a rerun of the message of turn N edited
// (up to turn N-1, then Text is sent as the first prompt once the agent is ready), or a
// continuation of the whole transcript in another agent. The new session is saved at once with
// that part of the parent's transcript and its link (store.LinkSession), and its agent opens it
// in the background (acp.Session.Reopen with a ForkOrigin): by session/fork when the agent
// offers it and the branch is the parent's last turn with the same agent, else with a summary.
// It returns at once, as Start does. It fails without a history (ErrNotSaved), for an unknown
// parent (store.ErrNotFound), a request it cannot follow (ErrBadFork), a missing agent or folder.
func (h *Hub) Fork(ctx context.Context, req ForkRequest, out acp.Emitter) (*acp.Session, SessionInfo, error) {
	if h.store == nil {
		return nil, SessionInfo{}, ErrNotSaved
	}
	if err := checkForkRequest(&req); err != nil {
		return nil, SessionInfo{}, fmt.Errorf("branch %s: %w", req.SessionID, err)
	}
	if err := h.store.Writer().Flush(ctx); err != nil {
		return nil, SessionInfo{}, fmt.Errorf("branch %s: %w", req.SessionID, err)
	}
	parent, turns, entries, err := h.store.Session(ctx, req.SessionID)
	if err != nil {
		return nil, SessionInfo{}, fmt.Errorf("branch %s: %w", req.SessionID, err)
	}
	last := lastPromptTurn(entries)
	if req.Link == acp.LinkContinueAgent {
		req.Turn = last
	} else if !hasPromptTurn(entries, req.Turn) {
		return nil, SessionInfo{}, fmt.Errorf("branch %s at turn %d: %w: the session has no message there", req.SessionID, req.Turn, ErrBadFork)
	}
	agentID, agentCmd := parent.AgentID, parent.AgentCmd
	if req.Link == acp.LinkContinueAgent && req.AgentID != "" {
		agentID, agentCmd = req.AgentID, ""
	}
	agent, err := h.savedAgent(agentID, agentCmd)
	if err != nil {
		return nil, SessionInfo{}, err
	}
	dir, dirs, mcp, err := h.checkPlace(agent.ID, parent.Cwd, parent.Dirs, nil)
	if err != nil {
		return nil, SessionInfo{}, err
	}
	perms, err := h.store.Permissions(ctx, req.SessionID)
	if err != nil {
		return nil, SessionInfo{}, fmt.Errorf("branch %s: %w", req.SessionID, err)
	}
	keep := func(turn int) bool { return turn < req.Turn || (req.Link != acp.LinkRerun && turn == req.Turn) }
	turns = ofTurns(turns, func(t store.Turn) int { return t.Turn }, keep)
	entries = ofTurns(entries, func(e store.Entry) int { return e.Turn }, keep)
	perms = ofTurns(perms, func(p store.Permission) int { return p.Turn }, keep)

	id := uuid.NewString()
	lease, err := h.claim(ctx, id)
	if err != nil {
		return nil, SessionInfo{}, refused("branch", req.SessionID, err)
	}
	now := h.now()
	child := store.Session{ID: id, AgentID: agent.ID, AgentCmd: agent.Line, AgentName: agent.Name, Cwd: dir, Dirs: dirs, Title: forkTitle(parent.Title, req.Link, agent.Name),
		Outcome: store.OutcomeReady, CreatedAt: now, UpdatedAt: now}
	h.store.Writer().SaveCopy(store.SessionCopy{Session: child, Turns: turns, Entries: entries})
	h.store.Writer().LinkSession(store.Link{Child: id, Parent: parent.ID, ParentTurn: req.Turn, Kind: req.Link,
		ParentTitle: parent.Title, ParentAgent: parent.AgentName, CreatedAt: now})

	origin := &acp.ForkOrigin{Link: req.Link, ParentID: parent.ID, ParentTitle: parent.Title, ParentAgent: parent.AgentName, Turn: req.Turn}
	if req.Link == acp.LinkFork && req.Turn == last && agent.ID == parent.AgentID {
		origin.AgentSessionID = parent.AgentSessionID // session/fork copies the agent's session at its end
	}
	snap := SnapshotFromStore(child, turns, entries)
	seed := &acp.Seed{Title: child.Title, Entries: snap.Entries, Turns: snap.Turns, Decisions: Decisions(perms), Fork: origin}
	rec := newRecorder(h.store.Writer(), id, agent, h.now, h.logf)
	rec.resume(child, turns, entries)
	l := launch{id: id, agent: agent, dir: dir, dirs: dirs, rec: rec, seed: seed, mcp: mcp, lease: lease,
		req: StartRequest{AgentID: agent.ID, Cwd: dir, HardStopAfter: req.HardStopAfter, RawEvents: req.RawEvents}}
	if req.Link == acp.LinkRerun {
		text := req.Text
		l.then = func(s *acp.Session) {
			if _, err := s.Prompt(text); err != nil {
				h.logf("session %s: the edited message could not be sent: %v", id, err)
			}
		}
	}
	s, info := h.launch(l, out)
	return s, info, nil
}

// checkForkRequest validates what the request alone can tell, and tidies the edited text.
func checkForkRequest(req *ForkRequest) error {
	if !acp.ValidLink(req.Link) {
		return fmt.Errorf("%w: unknown link %q", ErrBadFork, req.Link)
	}
	if req.Link != acp.LinkContinueAgent && req.Turn < 1 {
		return fmt.Errorf("%w: turn %d", ErrBadFork, req.Turn)
	}
	if req.Link == acp.LinkRerun {
		if strings.TrimSpace(req.Text) == "" {
			return fmt.Errorf("%w: the edited message is empty", ErrBadFork)
		}
		if len(req.Text) > MaxRerunText {
			return fmt.Errorf("%w: the edited message is longer than %d bytes", ErrBadFork, MaxRerunText)
		}
	}
	return nil
}

// forkTitle names a linked session after its parent, saying how it came from it.
func forkTitle(parent, link, agent string) string {
	switch link {
	case acp.LinkRerun:
		return parent + " (edited)"
	case acp.LinkContinueAgent:
		return parent + " (in " + agent + ")"
	}
	return parent + " (fork)"
}

// lastPromptTurn is the turn of the last user message saved (0: none).
func lastPromptTurn(entries []store.Entry) int {
	last := 0
	for _, e := range entries {
		if e.Kind == string(acp.KindUser) {
			last = max(last, e.Turn)
		}
	}
	return last
}

// hasPromptTurn reports whether a user message of turn was saved.
func hasPromptTurn(entries []store.Entry, turn int) bool {
	for _, e := range entries {
		if e.Kind == string(acp.KindUser) && e.Turn == turn {
			return true
		}
	}
	return false
}

// ofTurns keeps the rows of in whose turn (the row's turn number) keep accepts.
func ofTurns[T any](in []T, turn func(T) int, keep func(int) bool) []T {
	var out []T
	for _, r := range in {
		if keep(turn(r)) {
			out = append(out, r)
		}
	}
	return out
}
