package hub

import (
	"encoding/json"
	"testing"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/store"
)

// TestSavedSessionHasNoBusyCard: a tool call a dead process left pending or in progress reads
// cancelled under a turn marked interrupted (or cancelled), incomplete under one that ended
// otherwise; a card of a turn still open (another agentdesk runs it) keeps its status.
func TestSavedSessionHasNoBusyCard(t *testing.T) {
	tool := func(id string, turn int, status string) store.Entry {
		body, _ := json.Marshal(acp.Entry{ID: id, Kind: acp.KindTool, Turn: turn, Status: status, Title: "edit"})
		return store.Entry{EntryID: id, Turn: turn, Kind: string(acp.KindTool), Status: status, Body: body}
	}
	now := time.Now()
	turns := []store.Turn{
		{Turn: 1, EndedAt: now, StopReason: schema.StopInterrupted},
		{Turn: 2, EndedAt: now, StopReason: schema.StopEndTurn},
		{Turn: 3}, // still open
	}
	entries := []store.Entry{
		tool("a", 1, acp.StatusPending), tool("b", 1, acp.StatusInProgress), tool("c", 1, acp.StatusCompleted),
		tool("d", 2, acp.StatusInProgress), tool("e", 3, acp.StatusInProgress),
	}
	snap := SnapshotFromStore(store.Session{ID: "s"}, turns, entries)
	want := map[string]string{"a": acp.StatusCancelled, "b": acp.StatusCancelled, "c": acp.StatusCompleted,
		"d": acp.StatusIncomplete, "e": acp.StatusInProgress}
	for _, e := range snap.Entries {
		if e.Status != want[e.ID] {
			t.Errorf("card %s (turn %d) reads %q, want %q", e.ID, e.Turn, e.Status, want[e.ID])
		}
	}
}
