package store

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// SavedAgentSessions finds our copies of an agent's sessions: only that agent's, the newest
// when two hold the same one, and any number of ids (a page can be huge).
func TestSavedAgentSessions(t *testing.T) {
	s := openTest(t)
	w := s.Writer()
	w.CreateSession(Session{ID: "b", AgentID: "claude", AgentSessionID: "x", UpdatedAt: time.UnixMilli(2000)})
	w.CreateSession(Session{ID: "a", AgentID: "claude", AgentSessionID: "x", UpdatedAt: time.UnixMilli(1000)})
	w.CreateSession(Session{ID: "c", AgentID: "codex", AgentSessionID: "y"})
	w.CreateSession(Session{ID: "d", AgentID: "claude", AgentSessionID: "z"})
	flush(t, s.Store)

	ids := []string{"x", "y"}
	for i := range 1200 {
		ids = append(ids, fmt.Sprintf("other-%d", i))
	}
	ids = append(ids, "z")
	got, err := s.SavedAgentSessions(context.Background(), "claude", ids)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["x"] != "b" || got["z"] != "d" {
		t.Fatalf("saved %v, want x→b (the newer), z→d, and not codex's y", got)
	}
}
