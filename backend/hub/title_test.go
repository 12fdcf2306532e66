package hub

import (
	"context"
	"testing"

	"agentdesk/backend/acp"
)

// A person's rename of a live session goes to an agent that takes titles; the title it stored is
// the one kept, and a title the agent sends afterwards (session_info_update) does not replace it.
func TestRenamePushedAndKeptOverTheAgentsTitles(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	h, st := scriptHub(t, dir, `[{"expect":"initialize"},
 {"reply":{"protocolVersion":1,"agentCapabilities":{"sessionCapabilities":{"title":{}}}}},
 {"expect":"session/new"}, {"reply":{"sessionId":"m1"}},
 {"expect":"session/set_title"}, {"reply":{"title":"Fix the build (trimmed)"}},
 {"expect":"session/prompt"},
 {"update":{"sessionUpdate":"session_info_update","title":"The agent's own title"}},
 {"reply":{"stopReason":"end_turn"}}]`)
	defer h.CloseAll(context.Background())
	s, states := idleSession(t, h, dir)

	h.Renamed(s.ID())
	if got := h.PushTitle(ctx, s.ID(), "Fix the build"); got != "Fix the build (trimmed)" {
		t.Fatalf("PushTitle kept %q, want the agent's stored title", got)
	}
	if err := st.RenameSession(ctx, s.ID(), "Fix the build (trimmed)"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	waitState(t, states, acp.StateRunning)
	waitState(t, states, acp.StateIdle)
	if err := st.Writer().Flush(ctx); err != nil {
		t.Fatal(err)
	}
	saved, _, _, err := st.Session(ctx, s.ID())
	if err != nil || saved.Title != "Fix the build (trimmed)" {
		t.Fatalf("saved title %q (%v): the agent's title replaced the person's", saved.Title, err)
	}
	if got := h.PushTitle(ctx, "no-such-session", "x"); got != "x" {
		t.Fatalf("PushTitle of a session that is not live = %q", got)
	}
}
