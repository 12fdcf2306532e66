package hub

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/acp"
)

// lister keeps sessions of its own: its first run lists one (twice), its second (SECOND set)
// loads it, replaying its turn.
const lister = `[
	{"expect":"initialize"},
	{"reply":{"protocolVersion":1,"agentCapabilities":{"loadSession":true,"sessionCapabilities":{"list":{}}}}},
	{"expect":"session/new","when":"!SECOND"}, {"reply":{"sessionId":"live1"},"when":"!SECOND"},
	{"expect":"session/list","when":"!SECOND"},
	{"reply":{"sessions":[{"sessionId":"old","cwd":"DIR","title":"Earlier work"},{"sessionId":"","cwd":"DIR"}]},"when":"!SECOND"},
	{"expect":"session/list","when":"!SECOND"},
	{"reply":{"sessions":[{"sessionId":"old","cwd":"DIR","title":"Earlier work"}]},"when":"!SECOND"},
	{"expect":"session/load","when":"SECOND"},
	{"send":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"old",
		"update":{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"fix the build"}}}},"when":"SECOND"},
	{"send":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"old",
		"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Fixed."}}}},"when":"SECOND"},
	{"reply":null,"when":"SECOND"},
	{"expect":"never"}]`

// TestOpenAgentSession: an agent's own session, listed from a live session of that agent,
// opens here as a new saved session whose transcript is the agent's replay; listed again it
// reads as saved, and opening it again does not make a second copy.
func TestOpenAgentSession(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	st := openTestStore(t, filepath.Join(dir, "history.db"))
	defer st.Close()
	h := New(st, agentList{scriptAgent(t, dir, "a", strings.ReplaceAll(lister, "DIR", dir))}, t.Logf)
	defer h.CloseAll(ctx)
	live, _ := idleSession(t, h, dir)

	page, err := h.ListAgentSessions(ctx, live.ID(), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Sessions) != 1 || page.Sessions[0].SessionID != "old" || page.Sessions[0].SavedID != "" {
		t.Fatalf("page %+v, want the one session with an id, not saved", page)
	}

	t.Setenv("SECOND", "1")
	out2, states2 := stateEvents()
	s, info, err := h.OpenAgentSession(ctx, OpenAgentSessionRequest{AgentID: "a", AgentSessionID: "old", Cwd: dir, Title: "Earlier work"}, out2)
	if err != nil {
		t.Fatal(err)
	}
	waitState(t, states2, acp.StateIdle)
	var got []string
	for _, e := range s.Snapshot().Entries {
		got = append(got, string(e.Kind)+":"+e.Text)
	}
	if strings.Join(got, " | ") != "boundary: | user:fix the build | agent:Fixed." {
		t.Fatalf("entries %q", got)
	}

	page, err = h.ListAgentSessions(ctx, live.ID(), "")
	if err != nil || len(page.Sessions) != 1 || page.Sessions[0].SavedID != info.SessionID {
		t.Fatalf("listed again: %+v, %v; want saved as %s", page, err, info.SessionID)
	}
	if _, _, err := h.OpenAgentSession(ctx, OpenAgentSessionRequest{AgentID: "a", AgentSessionID: "old", Cwd: dir}, out2); !errors.Is(err, ErrAlreadyLive) {
		t.Fatalf("opening it again: %v, want ErrAlreadyLive", err)
	}
	if err := h.Close(ctx, info.SessionID); err != nil {
		t.Fatal(err)
	}
	sess, _, entries, err := st.Session(ctx, info.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	if sess.AgentSessionID != "old" || sess.Title != "Earlier work" || len(entries) != 3 {
		t.Fatalf("saved %+v with %d entries", sess, len(entries))
	}
}
