package acp

import (
	"context"
	"fmt"

	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// MethodSessionFork is the unstable session/fork: the agent copies one of its sessions, at its
// current end, into a new one (gated on sessionCapabilities.fork).
const MethodSessionFork = "session/fork"

// BoundaryForked is the boundary a linked session (a fork, a rerun of an edited message, a
// continuation in another agent) begins its own part with: Boundary.Link says which, From and
// Turn where it branched, and Summary, when set, is what the agent is given with the first
// prompt (empty when the agent forked its own session, or nothing came before).
const BoundaryForked = "forked"

// ContinuedForked: a linked session (Seed.Fork) opened, by session/fork or a summary.
const ContinuedForked Continued = "forked"

// Link kinds: how a session came from its parent (Seed.Fork, the history's links).
const (
	LinkFork          = "fork"           // "fork from here": the transcript up to and with that turn
	LinkRerun         = "rerun"          // an edited message: the transcript before it, then the new text
	LinkContinueAgent = "continue-agent" // the whole transcript, in another agent
)

// ValidLink reports whether kind is one of the Link* kinds.
func ValidLink(kind string) bool {
	return kind == LinkFork || kind == LinkRerun || kind == LinkContinueAgent
}

// ForkOrigin is where a linked session comes from (Seed.Fork). Seed.Entries then hold the
// parent's transcript up to the branch (ForkEntries), under the new session's own id.
type ForkOrigin struct {
	Link        string // Link*
	ParentID    string // our id of the parent session
	ParentTitle string
	ParentAgent string // the parent's agent name (continue-agent shows it)
	Turn        int    // the parent's turn it branched at
	// AgentSessionID is the parent's agent session to fork with session/fork, when the agent
	// offers it and the branch is at the parent's end; "" always opens a new agent session
	// given a summary of Seed.Entries.
	AgentSessionID string
}

// ForkEntries is the part of a transcript a linked session starts with: the entries of the
// turns before turn, and with include (a fork "from here") turn itself. Entries before the
// first prompt (turn 0) are kept. The entries are shared, not copied.
func ForkEntries(entries []Entry, turn int, include bool) []Entry {
	out := make([]Entry, 0, len(entries))
	for _, e := range entries {
		if e.Turn < turn || (include && e.Turn == turn) {
			out = append(out, e)
		}
	}
	return out
}

// forkedLocked announces how a linked session opened (method: session/fork or session/new):
// the forked boundary, and for a new agent session the summary its first prompt carries. The
// caller holds s.mu.
func (s *Session) forkedLocked(method string, f *ForkOrigin) Continued {
	b := Boundary{Kind: BoundaryForked, Link: f.Link, FromID: f.ParentID, From: f.ParentTitle, FromAgent: f.ParentAgent, Turn: f.Turn}
	if method == schema.MethodSessionNew {
		if entries := s.tr.Entries(); hasPrompt(entries) {
			s.pendingSummary = Summarize(entries, s.summaryBudgetLocked(entries))
			b.Summary = s.pendingSummary
		}
	} else {
		b.Forked = true
	}
	s.pushChange(s.tr.AddBoundary(b))
	return ContinuedForked
}

// forkLine is BoundaryLine for a forked boundary.
func forkLine(b *Boundary) string {
	var what string
	switch b.Link {
	case LinkRerun:
		what = fmt.Sprintf("edited and rerun from %q, turn %d", b.From, b.Turn)
	case LinkContinueAgent:
		what = fmt.Sprintf("continued from %q (%s)", b.From, b.FromAgent)
	default:
		what = fmt.Sprintf("forked from %q, turn %d", b.From, b.Turn)
	}
	if b.Forked {
		return what + ": the agent forked its own session"
	}
	if b.Summary != "" {
		return what + ": the agent was given a summary of the earlier turns"
	}
	return what
}

// forkOrigin is the seed's fork origin, nil for any other session. The seed never changes.
func (s *Session) forkOrigin() *ForkOrigin {
	if s.cfg.Seed == nil {
		return nil
	}
	return s.cfg.Seed.Fork
}

// openFork opens a linked session's agent session: session/fork of the parent's agent session
// when there is one to fork (ForkOrigin.AgentSessionID) and the agent offers
// sessionCapabilities.fork, else, or when the agent refuses it, session/new with a summary.
// *method is set to the call under way.
func (s *Session) openFork(ctx context.Context, conn *jsonrpc.Conn, f *ForkOrigin, caps AgentCapabilities, method *string) (Continued, error) {
	if f.AgentSessionID != "" && caps.sessionCap("fork") {
		*method = MethodSessionFork
		how, err := s.callOpen(ctx, conn, MethodSessionFork, true)
		if !refused(ctx, err) {
			return how, err
		}
		s.cfg.Logf("session %s: %s refused %s (%v); starting a new session with a summary", s.cfg.ID, s.cfg.AgentName, MethodSessionFork, err)
	}
	*method = schema.MethodSessionNew
	return s.callOpen(ctx, conn, schema.MethodSessionNew, true)
}
