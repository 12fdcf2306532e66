package acp_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
)

// The prompt queue (session_queue.go) against scripted agents. Each turn holds on a permission
// request until the test answers it, so prompts are queued while the turn certainly runs.

// holdTurn is a turn's start that waits for the test: session/prompt, then a permission request
// (its step reads past a session/cancel that Stop sends before it answers the request).
const holdTurn = `
 {"expect":"session/prompt"},
 {"call":"session/request_permission","params":{"toolCall":{"toolCallId":"t1","title":"Edit"},"options":[{"optionId":"ok","name":"Allow","kind":"allow_once"}]}},`

const endTurn = `{"reply":{"stopReason":"end_turn"}}`

// startHeldTurn starts a session against init (the initialize reply), journaling what it sends,
// and prompts "first": the agent holds that turn (holdTurn), then plays steps.
func startHeldTurn(t *testing.T, init, steps string) (*acp.Session, *events, *wireLog) {
	t.Helper()
	sc := script(t, `[{"expect":"initialize"}, {"reply":`+init+`},
 {"expect":"session/new"}, {"reply":{"sessionId":"sc1"}},`+holdTurn+steps+`]`)
	j := &wireLog{}
	s, ev := runScript(t, sc, nil, func(c *acp.Config) { c.Journal = j.tap })
	if _, err := s.Prompt("first"); err != nil {
		t.Fatal(err)
	}
	return s, ev, j
}

const plainInit = `{"protocolVersion":1,"agentCapabilities":{}}`

func queue(t *testing.T, s *acp.Session, text string) string {
	t.Helper()
	sub, err := s.Submit(text, nil)
	if err != nil || sub.Turn != 0 || sub.QueuedID == "" {
		t.Fatalf("prompt %q during a turn: %+v, %v; want it queued", text, sub, err)
	}
	return sub.QueuedID
}

func turnEnd(n int) func(acp.Event) bool {
	return func(ev acp.Event) bool { return ev.Kind == acp.EventTurnEnd && ev.Turn == n }
}

// prompts lists the user entries of snap as "turn:text", steered ones marked "~".
func prompts(snap acp.Snapshot) []string {
	var out []string
	for _, e := range snap.Entries {
		if e.Kind == acp.KindUser {
			mark := ""
			if e.Steered {
				mark = "~"
			}
			out = append(out, fmt.Sprintf("%d:%s%s", e.Turn, mark, e.Text))
		}
	}
	return out
}

func answer(t *testing.T, s *acp.Session, ev *events) {
	t.Helper()
	p := ev.waitFor(t, "permission", kind(acp.EventPermission))
	if err := s.AnswerPermission(p.RequestID, "ok"); err != nil {
		t.Fatal(err)
	}
}

func TestQueueOrderAcrossTurns(t *testing.T) {
	s, ev, j := startHeldTurn(t, plainInit, endTurn+`,
 {"expect":"session/prompt"}, `+endTurn+`,
 {"expect":"session/prompt"}, `+endTurn)
	p := ev.waitFor(t, "permission", kind(acp.EventPermission))
	second, third := queue(t, s, "second"), queue(t, s, "third")
	q := ev.waitFor(t, "queue", func(e acp.Event) bool { return e.Kind == acp.EventQueue && len(e.Queue) == 2 })
	if q.Queue[0].ID != second || q.Queue[1].ID != third || q.Queue[1].Text != "third" {
		t.Fatalf("queue event %+v, want second then third", q.Queue)
	}
	if snap := s.Snapshot(); len(snap.Queue) != 2 || snap.Controls.CanSteer {
		t.Fatalf("snapshot queue %+v, canSteer %v; want both prompts, no steering", snap.Queue, snap.Controls.CanSteer)
	}
	if _, err := s.Steer(context.Background(), second); !errors.Is(err, acp.ErrCannotSteer) {
		t.Fatalf("steer on an agent without steering: %v, want ErrCannotSteer", err)
	}
	if err := s.AnswerPermission(p.RequestID, "ok"); err != nil {
		t.Fatal(err)
	}
	ev.waitFor(t, "turn 3's end", turnEnd(3))
	snap := s.Snapshot()
	if got := strings.Join(prompts(snap), "|"); got != "1:first|2:second|3:third" {
		t.Fatalf("prompts %s, want one queued prompt per turn, in order", got)
	}
	if len(snap.Queue) != 0 || len(s.Queue()) != 0 {
		t.Fatalf("queue %+v after it was sent", snap.Queue)
	}
	if sent := j.sent("session/prompt"); len(sent) != 3 || !strings.Contains(sent[2], `"text":"third"`) {
		t.Fatalf("prompts on the wire: %q", sent)
	}
	evs := ev.upTo(t, snap.Seq)
	assertSeqContiguous(t, evs)
	assertFoldEqualsSnapshot(t, evs, snap)
}

func TestQueueSendNowCancelsThenSends(t *testing.T) {
	s, ev, _ := startHeldTurn(t, plainInit, `
 {"reply":{"stopReason":"cancelled"}},
 {"expect":"session/prompt"}, `+endTurn+`,
 {"expect":"session/prompt"}, `+endTurn)
	ev.waitFor(t, "permission", kind(acp.EventPermission))
	a, b := queue(t, s, "a"), queue(t, s, "b")
	if err := s.SendQueuedNow(b); err != nil {
		t.Fatal(err)
	}
	if end := ev.waitFor(t, "turn 1's end", turnEnd(1)); end.StopReason != schema.StopCancelled {
		t.Fatalf("turn 1 ended %q, want cancelled by send now", end.StopReason)
	}
	ev.waitFor(t, "turn 3's end", turnEnd(3))
	if got := strings.Join(prompts(s.Snapshot()), "|"); got != "1:first|2:b|3:a" {
		t.Fatalf("prompts %s, want the one sent now first, then the rest", got)
	}
	if err := s.SendQueuedNow(a); !errors.Is(err, acp.ErrNotQueued) {
		t.Fatalf("send now of a prompt already sent: %v, want ErrNotQueued", err)
	}
}

func TestQueueEditAndRemove(t *testing.T) {
	s, ev, _ := startHeldTurn(t, plainInit, endTurn+`,
 {"expect":"session/prompt"}, `+endTurn+`,
 {"expect":"session/prompt"}, `+endTurn)
	p := ev.waitFor(t, "permission", kind(acp.EventPermission))
	a, b, c := queue(t, s, "a"), queue(t, s, "b"), queue(t, s, "c")
	if err := s.EditQueued(b, "B edited"); err != nil {
		t.Fatal(err)
	}
	if err := s.RemoveQueued(a); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		err  error
		want error
	}{
		{s.EditQueued(a, "gone"), acp.ErrNotQueued},
		{s.RemoveQueued(a), acp.ErrNotQueued},
		{s.EditQueued(c, ""), acp.ErrEmptyPrompt},
	} {
		if !errors.Is(tc.err, tc.want) {
			t.Errorf("got %v, want %v", tc.err, tc.want)
		}
	}
	if q := s.Queue(); len(q) != 2 || q[0].Text != "B edited" || q[1].ID != c {
		t.Fatalf("queue %+v, want the edit and without the removed one", q)
	}
	if err := s.AnswerPermission(p.RequestID, "ok"); err != nil {
		t.Fatal(err)
	}
	ev.waitFor(t, "turn 3's end", turnEnd(3))
	if got := strings.Join(prompts(s.Snapshot()), "|"); got != "1:first|2:B edited|3:c" {
		t.Fatalf("prompts %s", got)
	}
}

func TestQueueKeptWhenAgentExits(t *testing.T) {
	s, ev, j := startHeldTurn(t, plainInit, `{"exit":1,"stderr":"boom"}`)
	p := ev.waitFor(t, "permission", kind(acp.EventPermission))
	id := queue(t, s, "keep me")
	if err := s.AnswerPermission(p.RequestID, "ok"); err != nil {
		t.Fatal(err)
	}
	ev.waitFor(t, "exited", func(e acp.Event) bool { return e.Kind == acp.EventState && e.State == acp.StateExited })
	held := ev.waitFor(t, "held queue", func(e acp.Event) bool { return e.Kind == acp.EventQueue && len(e.Queue) == 1 && e.Queue[0].Held })
	if held.Queue[0].ID != id || held.Queue[0].Text != "keep me" {
		t.Fatalf("held queue %+v", held.Queue)
	}
	snap := s.Snapshot()
	if len(snap.Queue) != 1 || !snap.Queue[0].Held {
		t.Fatalf("snapshot queue %+v, want the prompt kept, held", snap.Queue)
	}
	if err := s.SendQueuedNow(id); !errors.Is(err, acp.ErrEnded) {
		t.Fatalf("send now on an exited session: %v, want ErrEnded", err)
	}
	if _, err := s.Prompt("more"); !errors.Is(err, acp.ErrEnded) {
		t.Fatalf("prompt on an exited session: %v, want ErrEnded (not queued)", err)
	}
	if len(s.Queue()) != 1 || len(j.sent("session/prompt")) != 1 {
		t.Fatalf("queue %+v, prompts sent %d: the held prompt must stay and not be sent", s.Queue(), len(j.sent("session/prompt")))
	}
	evs := ev.upTo(t, snap.Seq)
	assertFoldEqualsSnapshot(t, evs, snap)
}
