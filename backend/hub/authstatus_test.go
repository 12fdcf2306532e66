package hub

import (
	"context"
	"testing"

	"agentdesk/backend/acp"
)

// An agent's sign-in state, as a session of it says it (here claude-agent-acp's
// _auth/status_update, before session/new answers), is kept for that agent for the picker.
func TestAuthStatusKeptPerAgent(t *testing.T) {
	dir := t.TempDir()
	h, _ := scriptHub(t, dir, `[{"expect":"initialize"}, {"reply":{"protocolVersion":1,"agentCapabilities":{}}},
 {"expect":"session/new"},
 {"send":{"jsonrpc":"2.0","method":"_auth/status_update","params":{"authStatus":{"kind":"subscription","label":"Claude Max","account":{"email":"me@example.com"}}}}},
 {"reply":{"sessionId":"m1"}}]`)
	defer h.CloseAll(context.Background())
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
