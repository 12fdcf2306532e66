package acp_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"agentdesk/backend/acp"
)

// The agent's session/delete and logout are offered to the window only when advertised, never
// delete the session we are in, and carry the agent's refusal.
func TestDeleteAgentSessionAndLogout(t *testing.T) {
	sc := script(t, `[
 {"expect":"initialize"}, {"reply":{"protocolVersion":1,"agentCapabilities":{"sessionCapabilities":{"list":{},"delete":{}},"auth":{"logout":{}}}}},
 {"expect":"session/new"}, {"reply":{"sessionId":"mine"}},
 {"expect":"session/delete"}, {"reply":{}},
 {"expect":"session/delete"}, {"error":{"code":-32602,"message":"no such session"}},
 {"expect":"logout"}, {"reply":{}}]`)
	s, _ := runScript(t, sc, nil)
	f := s.Snapshot().Controls.AgentFeatures
	if f == nil || !f.ListSessions || !f.DeleteSessions || !f.Logout {
		t.Fatalf("agent features %+v", f)
	}
	ctx := context.Background()
	if err := s.DeleteAgentSession(ctx, "mine"); !errors.Is(err, acp.ErrOwnAgentSession) {
		t.Fatalf("delete of our own agent session: %v", err)
	}
	if err := s.DeleteAgentSession(ctx, "old"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteAgentSession(ctx, "gone"); err == nil || !strings.Contains(err.Error(), "no such session") {
		t.Fatalf("a refused delete: %v", err)
	}
	if err := s.Logout(ctx); err != nil {
		t.Fatal(err)
	}
}

// session/archive is offered only where advertised, never archives the session we are in (the
// agent would close it), and carries the agent's refusal.
func TestArchiveAgentSession(t *testing.T) {
	sc := script(t, `[
 {"expect":"initialize"}, {"reply":{"protocolVersion":1,"agentCapabilities":{"sessionCapabilities":{"list":{},"archive":{}}}}},
 {"expect":"session/new"}, {"reply":{"sessionId":"mine"}},
 {"expect":"session/archive"}, {"reply":{}},
 {"expect":"session/archive"}, {"error":{"code":-32002,"message":"Resource not found"}}]`)
	s, _ := runScript(t, sc, nil)
	if f := s.Snapshot().Controls.AgentFeatures; f == nil || !f.ArchiveSessions || f.DeleteSessions {
		t.Fatalf("agent features %+v", f)
	}
	ctx := context.Background()
	if err := s.ArchiveAgentSession(ctx, "mine"); !errors.Is(err, acp.ErrOwnAgentSession) {
		t.Fatalf("archive of our own agent session: %v", err)
	}
	if err := s.ArchiveAgentSession(ctx, "old"); err != nil {
		t.Fatal(err)
	}
	if err := s.ArchiveAgentSession(ctx, "gone"); err == nil || !strings.Contains(err.Error(), "Resource not found") {
		t.Fatalf("a refused archive: %v", err)
	}
	if err := s.DeleteAgentSession(ctx, "old"); !errors.Is(err, acp.ErrNotOffered) {
		t.Fatalf("delete, not advertised: %v", err)
	}
}

func TestDeleteAndLogoutNotOffered(t *testing.T) {
	s, _ := runScript(t, script(t, `[{"expect":"initialize"}, {"reply":{"protocolVersion":1,"agentCapabilities":{}}}, {"expect":"session/new"}, {"reply":{"sessionId":"sc1"}}]`), nil)
	if f := s.Snapshot().Controls.AgentFeatures; f == nil || f.ListSessions || f.DeleteSessions || f.Logout {
		t.Fatalf("agent features %+v, want none", f)
	}
	ctx := context.Background()
	if f := s.Snapshot().Controls.AgentFeatures; f.ArchiveSessions {
		t.Fatalf("agent features %+v, want no archive", f)
	}
	for what, err := range map[string]error{"delete": s.DeleteAgentSession(ctx, "x"), "archive": s.ArchiveAgentSession(ctx, "x"),
		"logout": s.Logout(ctx)} {
		if !errors.Is(err, acp.ErrNotOffered) {
			t.Errorf("%s: %v, want ErrNotOffered", what, err)
		}
	}
}

// An agent's own session opened here the first time (nothing saved) is loaded before it is
// resumed: only the replay shows its earlier turns, which become the transcript.
func TestAgentSessionWithNothingSavedIsLoadedFirst(t *testing.T) {
	sc := script(t, `[
 {"expect":"initialize"}, {"reply":{"protocolVersion":1,"agentCapabilities":{"loadSession":true,"sessionCapabilities":{"resume":{}}}}},
 {"expect":"session/load"},
 {"send":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"theirs","update":{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"fix the build"}}}}},
 {"send":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"theirs","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Fixed."}}}}},
 {"reply":null}]`)
	s, _ := runScript(t, sc, &acp.Seed{AgentSessionID: "theirs", Title: "Earlier work"})
	var got []string
	for _, e := range s.Snapshot().Entries {
		got = append(got, string(e.Kind)+":"+e.Text)
	}
	if strings.Join(got, " | ") != "boundary: | user:fix the build | agent:Fixed." {
		t.Fatalf("entries %q", got)
	}
	if s.AgentSessionID() != "theirs" {
		t.Fatalf("agent session id %q", s.AgentSessionID())
	}
}
