package acp_test

import (
	"strings"
	"testing"
	"time"

	"agentdesk/backend/acp"
)

// The Demo agent, asked to use subagents, announces two children that work under their own ids;
// cancelling the long one ends it alone (cancelled), the other reports done, and the turn ends
// end_turn with both results.
func TestDemoSubagentsCancelOne(t *testing.T) {
	s, ev := startDemo(t, 20*time.Millisecond) // the long child works 120 steps: seconds to cancel it in
	if _, err := s.Prompt("use subagents please"); err != nil {
		t.Fatal(err)
	}
	first := ev.waitFor(t, "the first subagent's card", func(e acp.Event) bool {
		return e.Kind == acp.EventEntry && e.Entry.Kind == acp.KindSubagent && strings.HasPrefix(e.Entry.Subagent.Title, "Explore")
	})
	if !first.Entry.Subagent.Cancel {
		t.Fatalf("the demo's subagent %+v does not let itself be cancelled", first.Entry.Subagent)
	}
	if err := s.CancelSubagent(first.Entry.Subagent.SessionID); err != nil {
		t.Fatal(err)
	}
	end := ev.waitFor(t, "turn end", turnEnded)
	if end.StopReason != "end_turn" {
		t.Fatalf("the turn ended %q, want end_turn", end.StopReason)
	}
	states := map[string]string{}
	for _, c := range subagentCards(ev) {
		states[strings.Fields(c.Title)[0]] = c.State + "/" + c.StopReason
	}
	if states["Explore"] != "idle/cancelled" || states["Review"] != "idle/end_turn" {
		t.Errorf("subagent states %v: want Explore cancelled, Review done", states)
	}
	reply := ""
	for _, e := range s.Snapshot().Entries {
		if e.Kind == acp.KindAgent {
			reply += e.Text
		}
	}
	if !strings.Contains(reply, "cancelled") || !strings.Contains(reply, "done") {
		t.Errorf("the demo's summary %q does not say what each subagent did", reply)
	}
}
