package hub

import (
	"context"
	"errors"
	"fmt"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/agents"
	"agentdesk/backend/store"
)

// ErrAlreadyLive: ContinueSaved of a session that is live in this run (switch to it instead).
var ErrAlreadyLive = errors.New("the session is already live")

// ErrNotSaved: ContinueSaved without a history (the store could not be opened).
var ErrNotSaved = errors.New("there is no history to continue from")

// ErrNoCommandLine: ContinueSaved or a fork of a session started with a command line
// (`--agent-cmd`) saved without it (by an older agentdesk, or because it held a secret), so
// there is no agent to start.
var ErrNoCommandLine = errors.New("the history holds no command line for this session's agent: it was started with --agent-cmd " +
	"by an older agentdesk, or its command line held a secret, which the history never keeps (pass one as $VARIABLE)")

// findAgent is the catalog's agent id for a new session. Its command line (agents.CustomID), which
// the history keeps, is dropped when it holds a secret value the masker knows: no secret reaches
// the history, and continuing the session then says there is no command line (ErrNoCommandLine).
func (h *Hub) findAgent(id string) (agents.Agent, error) {
	a, err := h.agents.Find(id)
	if m := h.agents.Masker(); a.Line != "" && m.Mask(a.Line) != a.Line {
		a.Line = ""
	}
	return a, err
}

// savedAgent is the agent of a saved session: the catalog's agent id, or, for a session started
// with a command line (agents.CustomID), that line again, its variables expanded anew from this
// process's environment. Errors: the catalog's (*agents.UnknownError for an agent since deleted),
// ErrNoCommandLine, or the line's own (its program no longer found).
func (h *Hub) savedAgent(id, cmd string) (agents.Agent, error) {
	if !agents.IsCommandLineID(id) {
		return h.agents.Find(id)
	}
	if cmd == "" {
		return agents.Agent{}, ErrNoCommandLine
	}
	a, err := agents.FromCommandLine(cmd)
	a.ID = id
	return a, err
}

// ContinueRequest says which saved session to continue, and how to run it (as StartRequest).
type ContinueRequest struct {
	SessionID     string
	HardStopAfter time.Duration
	RawEvents     bool
	MCP           []string // as StartRequest.MCP
}

// ContinueSaved makes saved session req.SessionID live again, under the same id, with its agent
// in its folder: the agent resumes it, or loads it, or starts anew and is given a summary of the
// saved turns with the next prompt (acp.Session.Reopen); the transcript shows which in a boundary
// entry. It returns at once; events follow as for Start, beginning with the saved transcript's
// state. New turns are saved after the saved ones. It fails when the session is live already
// (ErrAlreadyLive) or live in another agentdesk process (*store.OwnedError, which names it), not saved (store.ErrNotFound), its agent is gone, or its folder is gone
// (*FolderError).
func (h *Hub) ContinueSaved(ctx context.Context, req ContinueRequest, out acp.Emitter) (*acp.Session, SessionInfo, error) {
	id := req.SessionID
	if h.store == nil {
		return nil, SessionInfo{}, ErrNotSaved
	}
	if _, err := h.Session(id); err == nil {
		return nil, SessionInfo{}, fmt.Errorf("continue %s: %w", id, ErrAlreadyLive)
	}
	// Claimed before it is read: what its last owner wrote is all in the file from here on.
	lease, err := h.claim(ctx, id)
	if err != nil {
		return nil, SessionInfo{}, refused("continue", id, err)
	}
	s, info, err := h.continueClaimed(ctx, req, lease, out)
	if err != nil {
		h.release(lease)
	}
	return s, info, err
}

// continueClaimed is ContinueSaved once the session is claimed.
func (h *Hub) continueClaimed(ctx context.Context, req ContinueRequest, lease *store.Lease, out acp.Emitter) (*acp.Session, SessionInfo, error) {
	id := req.SessionID
	if err := h.store.Writer().Flush(ctx); err != nil {
		return nil, SessionInfo{}, fmt.Errorf("continue %s: %w", id, err)
	}
	sess, turns, entries, err := h.store.Session(ctx, id)
	if err != nil {
		return nil, SessionInfo{}, fmt.Errorf("continue %s: %w", id, err)
	}
	perms, err := h.store.Permissions(ctx, id)
	if err != nil {
		return nil, SessionInfo{}, fmt.Errorf("continue %s: %w", id, err)
	}
	agent, err := h.savedAgent(sess.AgentID, sess.AgentCmd)
	if err != nil {
		return nil, SessionInfo{}, err
	}
	dir, dirs, mcp, err := h.checkPlace(agent.ID, sess.Cwd, sess.Dirs, req.MCP)
	if err != nil {
		return nil, SessionInfo{}, err
	}
	snap := SnapshotFromStore(sess, turns, entries)
	seed := &acp.Seed{AgentSessionID: sess.AgentSessionID, Title: sess.Title, Entries: snap.Entries, Turns: snap.Turns,
		Decisions: Decisions(perms)}
	rec := newRecorder(h.store.Writer(), id, agent, h.now, h.logf)
	rec.resume(sess, turns, entries)
	out, rejoin := h.rejoin(ctx, id, out)
	s, info := h.launch(launch{id: id, agent: agent, dir: dir, dirs: dirs, rec: rec, seed: seed, mcp: mcp, lease: lease,
		req: StartRequest{AgentID: agent.ID, Cwd: dir, HardStopAfter: req.HardStopAfter, RawEvents: req.RawEvents}}, out)
	rejoin(info)
	return s, info, nil
}

// resume sets up a recorder for a saved session that continues (ContinueSaved): its entries keep
// their positions and new ones follow, its turn and outcome carry on, and its title stays the
// one it was saved with: the user finds the session by that name in the history, and an agent
// seeded with a summary would otherwise retitle it after the summary. The store does not record
// whether the user chose the title, so every saved title is kept. The caller has not shared r yet.
func (r *recorder) resume(sess store.Session, turns []store.Turn, entries []store.Entry) {
	for _, e := range entries {
		r.seqs[e.EntryID] = e.Seq
		r.lastSeq = max(r.lastSeq, e.Seq)
	}
	for _, t := range turns {
		r.turn = max(r.turn, t.Turn)
		if !t.EndedAt.IsZero() && t.StopReason != "" {
			r.lastStop = t.StopReason
		}
	}
	r.outcome = sess.Outcome
	r.titled.Store(true)
}
