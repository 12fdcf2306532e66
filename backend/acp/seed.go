package acp

import (
	"fmt"
	"strconv"
	"strings"
)

// Seed is a saved session to continue (Config.Seed): what the store kept of it. A seeded
// session starts with this transcript, these turns and decisions, and continues with Reopen
// rather than Start; its new entries and turns carry on after the saved ones.
type Seed struct {
	AgentSessionID string // the agent's own id of the session; "" when it never opened
	Title          string
	Entries        []Entry // in order, with their saved ids ("e<n>") and turns
	Turns          []TurnSummary
	Decisions      []DecisionSummary
	// Fork, when set, makes this a new linked session (a fork, a rerun, a continuation in
	// another agent): Reopen opens it with session/fork or a summary (fork.go), never with
	// session/resume or session/load.
	Fork *ForkOrigin
}

// decisionLocked records the closing of the parked request p with outcome and option, and
// announces it (permission_done). The caller holds s.mu.
func (s *Session) decisionLocked(p *pendingPermission, outcome, optionID, decidedBy string) {
	d := DecisionOf(p.summary, outcome, optionID, decidedBy)
	s.perms.decisions = append(s.perms.decisions, d)
	s.draft.AddDecision(receiptDecision(p.summary.Title, d))
	s.waitTickLocked()
	s.pushEvent(Event{Kind: EventPermissionDone, RequestID: d.RequestID, Decision: &d})
}

// RestoreTranscript rebuilds a transcript from saved entries, so that it continues them: the
// next entry id follows the greatest saved "e<n>" (new ids never collide with saved ones), the
// turn is the last saved one, each tool call's latest card, each turn's plan and usage are
// known again, and every saved turn counts as ended (a late update does not reopen a card;
// an elicitation left open reads cancelled: the agent that asked is gone; so is the agent that ran
// a subagent, whose card no longer claims it works).
func RestoreTranscript(entries []Entry) *Transcript {
	t := NewTranscript()
	for i := range entries {
		e := entries[i].clone()
		if n, err := strconv.Atoi(strings.TrimPrefix(e.ID, "e")); err == nil && strings.HasPrefix(e.ID, "e") && n > t.n {
			t.n = n
		}
		if _, dup := t.byID[e.ID]; dup || e.ID == "" {
			continue // a damaged save; keep the first
		}
		t.byID[e.ID] = len(t.entries)
		t.entries = append(t.entries, &e)
		t.turn = max(t.turn, e.Turn)
		switch e.Kind {
		case KindTool:
			t.tools[e.ToolCallID] = e.ID
		case KindPlan:
			t.plans[e.Turn] = e.ID
		case KindUsage:
			t.usages[e.Turn] = e.ID
		case KindCompaction:
			if e.Compaction != nil { // a later update of the same compaction changes its divider
				if t.compactions == nil {
					t.compactions = map[string]string{}
				}
				t.compactions[e.Compaction.ID] = e.ID
			}
		}
	}
	t.ended = t.turn
	settleElicitations(t.entries)
	settleSubagents(t.entries)
	return t
}

// BoundaryLine is a boundary in one line of words, as the Markdown export and the command line
// show it: "context restored by the agent", "replayed by the agent (12 updates, 3 new)", "new
// agent session: the agent was given a summary of the earlier turns".
func BoundaryLine(b *Boundary) string {
	if b == nil {
		return "continued"
	}
	switch b.Kind {
	case BoundaryResumed:
		return "context restored by the agent"
	case BoundaryReplayed:
		return fmt.Sprintf("replayed by the agent (%d updates, %d new)", b.Replayed, b.Added)
	case BoundarySummarised:
		return "new agent session: the agent was given a summary of the earlier turns"
	case BoundaryForked:
		return forkLine(b)
	}
	return "continued (" + b.Kind + ")"
}
