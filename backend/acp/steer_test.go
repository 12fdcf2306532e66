package acp_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
)

// Steering a queued prompt into the running turn (session_steer.go), against scripted agents
// that advertise it the ways real adapters do.

// steeringInit is codex-acp's and claude-agent-acp's advertisement: InitializeResponse._meta.
const steeringInit = `{"protocolVersion":1,"agentCapabilities":{},"_meta":{"steering":{"supported":true}}}`

func TestSteerExtensionInjects(t *testing.T) {
	s, ev, j := startHeldTurn(t, steeringInit, `
 {"expect":"_session/steering"}, {"reply":{"outcome":"injected"}},
 {"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"changing course"}}},
 {"reply":{"stopReason":"end_turn"},"oldest":true}`)
	answer(t, s, ev)
	if !s.Snapshot().Controls.CanSteer {
		t.Fatal("canSteer is false for an agent advertising _meta.steering.supported")
	}
	id := queue(t, s, "go left")
	steered, err := s.Steer(context.Background(), id)
	if err != nil || !steered {
		t.Fatalf("steer: %v, %v; want it delivered", steered, err)
	}
	ev.waitFor(t, "turn 1's end", turnEnd(1))
	snap := s.Snapshot()
	if got := strings.Join(prompts(snap), "|"); got != "1:first|1:~go left" {
		t.Fatalf("prompts %s, want the steered one in turn 1, marked", got)
	}
	if len(snap.Queue) != 0 || len(snap.Turns) != 1 {
		t.Fatalf("queue %+v, turns %+v: a steered prompt leaves the queue and starts no turn", snap.Queue, snap.Turns)
	}
	sent := j.sent("_session/steering")
	if len(sent) != 1 || !strings.Contains(sent[0], `"text":"go left"`) || !strings.Contains(sent[0], `"idleBehavior":"promptRequired"`) ||
		!strings.Contains(sent[0], `"sessionId":"sc1"`) {
		t.Fatalf("steering request %q", sent)
	}
	evs := ev.upTo(t, snap.Seq)
	assertFoldEqualsSnapshot(t, evs, snap)
}

// A refused steer leaves the prompt queued: "failed" is an error, "promptRequired" (the turn
// was over for the agent) is not; both prompts go as turns of their own after the turn.
func TestSteerRefusedStaysQueued(t *testing.T) {
	init := `{"protocolVersion":1,"agentCapabilities":{"_meta":{"steering":{"modes":["queue","steer"]}}}}`
	s, ev, _ := startHeldTurn(t, init, `
 {"expect":"_session/steering"}, {"reply":{"outcome":"failed"}},
 {"expect":"_session/steering"}, {"reply":{"outcome":"promptRequired"}},
 {"reply":{"stopReason":"end_turn"},"oldest":true},
 {"expect":"session/prompt"}, `+endTurn+`,
 {"expect":"session/prompt"}, `+endTurn)
	answer(t, s, ev)
	a, b := queue(t, s, "a"), queue(t, s, "b")
	var refused *acp.SteerRefusedError
	if steered, err := s.Steer(context.Background(), a); steered || !errors.As(err, &refused) || refused.Outcome != "failed" {
		t.Fatalf("steer answered failed: %v, %v; want a SteerRefusedError", steered, err)
	}
	if q := s.Queue(); len(q) != 2 { // the agent waits for the next steer: the turn runs on
		t.Fatalf("queue %+v: a refused steer must leave the prompt queued", q)
	}
	if steered, err := s.Steer(context.Background(), b); steered || err != nil {
		t.Fatalf("steer answered promptRequired: %v, %v; want not steered, no error", steered, err)
	}
	ev.waitFor(t, "turn 3's end", turnEnd(3))
	if got := strings.Join(prompts(s.Snapshot()), "|"); got != "1:first|2:a|3:b" {
		t.Fatalf("prompts %s", got)
	}
}

// Older Claude adapters (promptQueueing) take a second session/prompt into the running turn and
// answer the first end_turn; the turn ends once with the second's answer.
func TestSteerPromptQueueing(t *testing.T) {
	init := `{"protocolVersion":1,"agentCapabilities":{"_meta":{"claudeCode":{"promptQueueing":true}}}}`
	s, ev, j := startHeldTurn(t, init, `
 {"expect":"session/prompt"},
 {"reply":{"stopReason":"end_turn"},"oldest":true},
 {"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"on it"}}},
 {"reply":{"stopReason":"end_turn"}}`)
	answer(t, s, ev)
	id := queue(t, s, "also this")
	if steered, err := s.Steer(context.Background(), id); err != nil || !steered {
		t.Fatalf("steer: %v, %v", steered, err)
	}
	end := ev.waitFor(t, "turn end", kind(acp.EventTurnEnd))
	if end.Turn != 1 || end.StopReason != schema.StopEndTurn {
		t.Fatalf("turn end %+v", end)
	}
	ev.waitFor(t, "idle", func(e acp.Event) bool { return e.Kind == acp.EventState && e.State == acp.StateIdle })
	snap := s.Snapshot()
	if got := strings.Join(prompts(snap), "|"); got != "1:first|1:~also this" {
		t.Fatalf("prompts %s", got)
	}
	if len(snap.Turns) != 1 || len(j.sent("session/prompt")) != 2 {
		t.Fatalf("turns %+v, prompts sent %d: want one turn carried by two prompts", snap.Turns, len(j.sent("session/prompt")))
	}
	if md := markdown(snap.Entries); !strings.Contains(md, "on it") {
		t.Fatalf("the reply after the steer is missing:\n%s", md)
	}
}

func TestSteerNeedsARunningTurn(t *testing.T) {
	s, ev, _ := startHeldTurn(t, steeringInit, `
 {"reply":{"stopReason":"cancelled"}},
 {"expect":"session/prompt"}, `+endTurn)
	ev.waitFor(t, "permission", kind(acp.EventPermission))
	id := queue(t, s, "later")
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Steer(context.Background(), id); !errors.Is(err, acp.ErrNoTurn) && !errors.Is(err, acp.ErrNotQueued) {
		t.Fatalf("steer while the turn is stopping: %v, want ErrNoTurn (or ErrNotQueued once sent)", err)
	}
	ev.waitFor(t, "turn 2's end", turnEnd(2))
	if got := strings.Join(prompts(s.Snapshot()), "|"); got != "1:first|2:later" {
		t.Fatalf("prompts %s: a prompt queued before Stop goes after the stopped turn", got)
	}
}

// TestGoldenQueue pins the queue event and a steered user entry: a turn during which two prompts
// are queued, one steered into it; the other is sent as the next turn. The events file is what
// the frontend tests fold; -update rewrites it and the transcript.
func TestGoldenQueue(t *testing.T) {
	s, ev, _ := startHeldTurn(t, steeringInit, `
 {"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Working."}}},
 {"expect":"_session/steering"}, {"reply":{"outcome":"injected"}},
 {"reply":{"stopReason":"end_turn"},"oldest":true},
 {"expect":"session/prompt"},
 {"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Done."}}},
 `+endTurn)
	answer(t, s, ev)
	next := queue(t, s, "then this")
	steer := queue(t, s, "go left")
	if err := s.EditQueued(next, "then this, please"); err != nil {
		t.Fatal(err)
	}
	if steered, err := s.Steer(context.Background(), steer); err != nil || !steered {
		t.Fatalf("steer: %v, %v", steered, err)
	}
	ev.waitFor(t, "turn 2's end", turnEnd(2))
	ev.waitFor(t, "idle", func(e acp.Event) bool { return e.Kind == acp.EventState && e.State == acp.StateIdle })
	checkGolden(t, "queue", ev.list(), s.Snapshot().Entries)
}
