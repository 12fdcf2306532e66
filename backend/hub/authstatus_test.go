package hub

import (
	"context"
	"path/filepath"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/agents"
)

// An agent's sign-in state, as a session of it says it (here claude-agent-acp's
// _auth/status_update, before session/new answers), is kept for that agent for the picker.
func TestAuthStatusKeptPerAgent(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	agent := scriptAgent(t, dir, "a", `[{"expect":"initialize"}, {"reply":{"protocolVersion":1,"agentCapabilities":{}}},
 {"expect":"session/new"},
 {"send":{"jsonrpc":"2.0","method":"_auth/status_update","params":{"authStatus":{"kind":"subscription","label":"Claude Max","account":{"email":"me@example.com"}}}}},
 {"reply":{"sessionId":"m1"}}]`)
	cat := agents.NewCatalog([]agents.Agent{agent}, nil, &agents.ConfigFile{Path: filepath.Join(dir, "agents.json")},
		agents.OpenSecrets(filepath.Join(dir, "secrets")))
	h := New(nil, cat, t.Logf)
	defer h.CloseAll(ctx)
	if _, ok := h.AuthStatusOf("a"); ok {
		t.Fatal("a state before any session said one")
	}
	idleSession(t, h, dir)
	if st, ok := h.AuthStatusOf("a"); !ok || st != (acp.AuthStatus{State: acp.AuthAuthenticated, Label: "Claude Max"}) {
		t.Fatalf("state %+v %v", st, ok)
	}
	if _, ok := h.AuthStatusOf("other"); ok {
		t.Fatal("another agent has a state")
	}
}
