package acp_test

import (
	"context"
	"slices"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// authAgent advertises auth/status, answers it signed in with two accounts, and after
// session/new sends the schema's update and claude-agent-acp's.
type authAgent struct {
	quiet
	conn *jsonrpc.Conn
}

func (a *authAgent) HandleRequest(req *jsonrpc.Request) {
	switch req.Method {
	case schema.MethodInitialize:
		req.Reply(map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{"auth": map[string]any{"status": map[string]any{}}}}, nil)
	case acp.MethodAuthStatus:
		req.Reply(map[string]any{"state": "authenticated", "accounts": []any{
			map[string]any{"label": "Personal"}, map[string]any{"label": "Work\u202e", "active": true, "email": "me@example.com"}}}, nil)
	case schema.MethodSessionNew:
		req.Reply(map[string]any{"sessionId": "a1"}, nil)
		go func() {
			_ = a.conn.Notify(acp.MethodAuthStatusUpdate, map[string]any{"state": "signed_in_somehow"})
			_ = a.conn.Notify(acp.MethodAuthStatusClaude, map[string]any{"authStatus": map[string]any{"kind": "none", "label": "Not logged in"}})
		}()
	default:
		req.Reply(nil, &jsonrpc.Error{Code: schema.CodeMethodNotFound, Message: req.Method})
	}
}

// The sign-in state is asked after initialize of an agent that advertises auth.status, and taken
// from both update notifications: the active account's label (cleaned, no e-mail), an unknown
// state read as unknown, claude-agent-acp's kind "none" as not signed in.
func TestAuthStatusAskedAndUpdated(t *testing.T) {
	got := make(chan acp.AuthStatus, 8)
	s := acp.NewSession(acp.Config{ID: "s1", AgentName: "auth", Cwd: t.TempDir(), Emitter: newEvents(), Logf: t.Logf,
		OnAuthStatus: func(st acp.AuthStatus) { got <- st },
		Launch: func(context.Context) (acp.Transport, error) {
			return acptest.ServeHandler(func(c *jsonrpc.Conn) jsonrpc.Handler { return &authAgent{conn: c} }), nil
		}})
	t.Cleanup(func() { s.Close() })
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	var seen []acp.AuthStatus
	for range 3 {
		seen = append(seen, <-got)
	}
	for _, want := range []acp.AuthStatus{{State: "authenticated", Label: "Work"}, {State: "unknown"}, {State: "unauthenticated"}} {
		if !slices.Contains(seen, want) {
			t.Fatalf("statuses %+v, want %+v among them", seen, want)
		}
	}
}
