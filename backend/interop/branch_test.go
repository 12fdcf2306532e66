package interop

import (
	"context"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/hub"
)

// TestAForkKeepsTheEarlierTurns: a fork of a session at its first turn (hub.Fork) is a session
// of its own, forked by the agent itself (both offer session/fork), whose first model request
// holds the parent's turn.
func TestAForkKeepsTheEarlierTurns(t *testing.T) {
	each(t, func(t *testing.T, f flavour, wire *Tripwire) {
		r, srv := scripted(t, f, wire, f.ask, func(_ string, a Ask) Answer { return Say("Noted.") })
		parent := r.start()
		r.turn(parent, "remember the word kumquat", "")
		fork, _, err := r.core.Hub.Fork(context.Background(), hub.ForkRequest{SessionID: parent.ID(), Link: acp.LinkFork, Turn: 1, RawEvents: true}, r.listen())
		if err != nil {
			t.Fatal(err)
		}
		r.idle(fork)
		before := len(srv.Seen())
		if end := r.turn(fork, "which word was it?", ""); end.StopReason != "end_turn" {
			t.Fatalf("the fork's turn ended %q:\n%s", end.StopReason, dump(fork))
		}
		var held bool
		for _, s := range srv.Seen()[before:] {
			held = held || (!s.Ask.Side && strings.Contains(string(s.Body), "kumquat"))
		}
		if !held {
			t.Errorf("the fork's model request does not hold the parent's turn:\n%s", srv.Summary())
		}
		var boundary *acp.Boundary
		for _, e := range fork.Snapshot().Entries {
			if e.Kind == acp.KindBoundary {
				boundary = e.Boundary
			}
		}
		if boundary == nil || boundary.Kind != acp.BoundaryForked || !boundary.Forked {
			t.Errorf("the fork's boundary is %+v, want the agent's own fork (session/fork)", boundary)
		}
	})
}

// TestAPromptSteeredIntoTheRunningTurnReachesTheModel: a prompt queued while the model is still
// answering and steered into the turn (both agents offer steering) reaches the model within
// that turn, and leaves the queue.
func TestAPromptSteeredIntoTheRunningTurnReachesTheModel(t *testing.T) {
	each(t, func(t *testing.T, f flavour, wire *Tripwire) {
		answering, hold := make(chan struct{}), make(chan struct{})
		var first atomicBool
		r, srv := scripted(t, f, wire, f.ask, func(_ string, a Ask) Answer {
			if strings.Contains(a.Prompt, "start") && first.once() {
				close(answering)
				return Answer{Text: "Working on it.", Hold: hold}
			}
			return Say("Heard you.")
		})
		s := r.start()
		if _, err := s.Prompt("start the work"); err != nil {
			t.Fatal(err)
		}
		<-answering
		sub, err := s.Submit("and mention bananas", nil)
		if err != nil || sub.QueuedID == "" {
			t.Fatalf("submit during the turn: %+v, %v", sub, err)
		}
		steered, err := s.Steer(context.Background(), sub.QueuedID)
		close(hold)
		if err != nil || !steered {
			t.Fatalf("steer: %v, %v", steered, err)
		}
		end := r.finish(s, "")
		var reached bool
		for _, seen := range srv.Seen() {
			reached = reached || (!seen.Ask.Side && strings.Contains(string(seen.Body), "mention bananas"))
		}
		if !reached || len(s.Queue()) != 0 {
			t.Fatalf("the steered prompt reached the model: %v; queue %+v; turn ended %q\n%s", reached, s.Queue(), end.StopReason, srv.Summary())
		}
	})
}
