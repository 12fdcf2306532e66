package acp_test

import (
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
)

func ptr[T any](v T) *T { return &v }

func TestRestoreTranscriptContinuesIDsAndTurns(t *testing.T) {
	saved := []acp.Entry{
		{ID: "e1", Kind: acp.KindUser, Turn: 1, Text: "one"},
		{ID: "e2", Kind: acp.KindTool, Turn: 1, ToolCallID: "call_1", Title: "Read", Status: acp.StatusIncomplete},
		{ID: "e3", Kind: acp.KindPlan, Turn: 1, Plan: []schema.PlanEntry{{Content: "a", Status: "pending"}}},
		{ID: "e9", Kind: acp.KindUser, Turn: 2, Text: "two"}, // ids need not be dense
		{ID: "e10", Kind: acp.KindAgent, Turn: 2, Text: "reply"},
	}
	tr := acp.RestoreTranscript(saved)
	if tr.Turn() != 2 || len(tr.Entries()) != 5 {
		t.Fatalf("turn %d, %d entries", tr.Turn(), len(tr.Entries()))
	}
	if tr.ToolEntryID("call_1") != "e2" {
		t.Fatalf("the tool card is not known again: %q", tr.ToolEntryID("call_1"))
	}
	// A late update of a saved card patches it but does not reopen it.
	c := tr.UpsertTool(schema.ToolCallFields{ToolCallID: "call_1", Status: ptr(acp.StatusInProgress), Title: ptr("Read more")}, false)
	if c.Entry.ID != "e2" || c.Entry.Status != acp.StatusIncomplete || c.Entry.Title != "Read more" {
		t.Fatalf("late update of a saved card: %+v", c.Entry)
	}
	// The next turn's entries get ids after the greatest saved one.
	if c := tr.StartTurn(3, "three"); c.Entry.ID != "e11" || c.Entry.Turn != 3 {
		t.Fatalf("the next entry is %+v, want e11 in turn 3", c.Entry)
	}
	// A reused tool call id in the new turn starts a new card; its updates may open it.
	c = tr.UpsertTool(schema.ToolCallFields{ToolCallID: "call_1", Status: ptr(acp.StatusPending)}, true)
	if c.Entry.ID != "e12" || c.Entry.Turn != 3 || c.Entry.Status != acp.StatusPending {
		t.Fatalf("new card %+v", c.Entry)
	}
	if c := tr.UpsertTool(schema.ToolCallFields{ToolCallID: "call_1", Status: ptr(acp.StatusInProgress)}, false); c.Entry.Status != acp.StatusInProgress {
		t.Fatalf("the running turn's card did not move on: %+v", c.Entry)
	}
	// A plan in the new turn is a new entry; the saved turn's stays.
	ch := tr.Apply(schema.Update{Kind: schema.UpdatePlan, Plan: []schema.PlanEntry{{Content: "b"}}})
	if len(ch) != 1 || ch[0].Entry.ID != "e13" {
		t.Fatalf("plan %+v", ch)
	}
	if e, _ := tr.Entry("e3"); len(e.Plan) != 1 || e.Plan[0].Content != "a" {
		t.Fatalf("the saved plan changed: %+v", e)
	}
}

func TestRestoreTranscriptOfNothing(t *testing.T) {
	tr := acp.RestoreTranscript(nil)
	if c := tr.StartTurn(tr.Turn()+1, "hi"); c.Entry.ID != "e1" || c.Entry.Turn != 1 {
		t.Fatalf("first entry %+v", c.Entry)
	}
}

func TestAdoptRenumbersReplayedTurns(t *testing.T) {
	tr := acp.RestoreTranscript([]acp.Entry{{ID: "e1", Kind: acp.KindUser, Turn: 1, Text: "one"}})
	out := tr.Adopt([]acp.Entry{
		{ID: "e1", Kind: acp.KindUser, Text: "two"},
		{ID: "e2", Kind: acp.KindTool, ToolCallID: "t", Title: "T", Status: acp.StatusCompleted},
	})
	if len(out) != 2 || out[0].Entry.ID != "e2" || out[0].Entry.Turn != 2 || out[1].Entry.ID != "e3" || out[1].Entry.Turn != 2 {
		t.Fatalf("adopted %+v %+v", out[0].Entry, out[1].Entry)
	}
	if tr.Turn() != 2 || tr.ToolEntryID("t") != "e3" {
		t.Fatalf("turn %d, tool %q", tr.Turn(), tr.ToolEntryID("t"))
	}
}

func TestBoundaryEntryRendersInOneLine(t *testing.T) {
	for _, c := range []struct {
		b    acp.Boundary
		want string
	}{
		{acp.Boundary{Kind: acp.BoundaryResumed}, "## Continued: context restored by the agent\n"},
		{acp.Boundary{Kind: acp.BoundaryReplayed, Replayed: 12, Added: 3}, "## Continued: replayed by the agent (12 updates, 3 new)\n"},
		{acp.Boundary{Kind: acp.BoundarySummarised, Summary: "long"}, "## Continued: new agent session: the agent was given a summary of the earlier turns\n"},
	} {
		e := acp.Entry{Kind: acp.KindBoundary, Boundary: &c.b}
		if got := acp.EntryMarkdown(&e); got != c.want {
			t.Errorf("%s: %q", c.b.Kind, got)
		}
		if e.SearchText() != "" {
			t.Errorf("%s: a boundary has search text", c.b.Kind)
		}
	}
}
