package hub

import (
	"context"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
)

// TestQueueAndSteerAreSavedAsTheyHappened: the history keeps one turn per prompt the agent
// ran as a turn — the first, and the queued one sent after it — and a prompt steered into the
// first turn as an entry of that turn (marked steered), not as a turn of its own that would
// replace the first one's prompt.
func TestQueueAndSteerAreSavedAsTheyHappened(t *testing.T) {
	dir := t.TempDir()
	h, st := scriptHub(t, dir, `[
		{"expect":"initialize"}, {"reply":{"protocolVersion":1,"agentCapabilities":{},"_meta":{"steering":{"supported":true}}}},
		{"expect":"session/new"}, {"reply":{"sessionId":"x"}},
		{"expect":"session/prompt"},
		{"call":"session/request_permission","params":{"toolCall":{"toolCallId":"t1","title":"edit"},
			"options":[{"optionId":"ok","name":"Allow","kind":"allow_once"}]}},
		{"expect":"_session/steering"}, {"reply":{"outcome":"injected"}},
		{"reply":{"stopReason":"end_turn"},"oldest":true},
		{"expect":"session/prompt"}, {"reply":{"stopReason":"end_turn"}}]`)
	ctx := context.Background()
	s, feed := startIdle(t, h, dir)
	if _, err := s.Prompt("first"); err != nil {
		t.Fatal(err)
	}
	perm := waitFor(t, feed, func(ev acp.Event) bool { return ev.Kind == acp.EventPermission })
	next, err := s.Submit("queued", nil)
	if err != nil {
		t.Fatal(err)
	}
	steer, err := s.Submit("steered", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AnswerPermission(perm.RequestID, "ok"); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Steer(ctx, steer.QueuedID); !ok || err != nil {
		t.Fatalf("steer: %v, %v", ok, err)
	}
	waitFor(t, feed, func(ev acp.Event) bool { return ev.Kind == acp.EventTurnEnd && ev.Turn == 2 })
	if len(s.Queue()) != 0 || next.QueuedID == "" {
		t.Fatalf("queue %+v after both were sent", s.Queue())
	}
	if err := h.CloseAll(ctx); err != nil {
		t.Fatal(err)
	}
	_, turns, entries, err := st.Session(ctx, s.ID())
	if err != nil {
		t.Fatal(err)
	}
	if len(turns) != 2 || turns[0].Prompt != "first" || turns[1].Prompt != "queued" || turns[0].StopReason != schema.StopEndTurn {
		t.Fatalf("saved turns %+v, want first and queued", turns)
	}
	steered := 0
	for _, e := range entries {
		if e.Kind == string(acp.KindUser) && e.Turn == 1 && e.Text == "steered" && strings.Contains(string(e.Body), `"steered":true`) {
			steered++
		}
	}
	if steered != 1 {
		t.Fatalf("the steered prompt is saved %d times in turn 1, want once: %+v", steered, entries)
	}
}
