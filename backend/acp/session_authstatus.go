package acp

import (
	"context"
	"encoding/json"
	"time"

	"agentdesk/backend/acp/jsonrpc"
)

// Methods of the agent's sign-in state (schema 1.35, unstable; claude-agent-acp's extension).
const (
	MethodAuthStatus       = "auth/status"         // asked when agentCapabilities.auth.status
	MethodAuthStatusUpdate = "auth/status_update"  // the agent's notification when it changes
	MethodAuthStatusClaude = "_auth/status_update" // claude-agent-acp's: {authStatus: {kind, label}}
)

// Auth states (schema AuthState); any other value the agent sends reads as AuthUnknown.
const (
	AuthAuthenticated   = "authenticated"
	AuthUnauthenticated = "unauthenticated"
	AuthNotRequired     = "not_required"
	AuthUnknown         = "unknown"
)

// AuthStatus is whether an agent can start sessions without the person signing in first, as the
// agent last said (auth/status, its updates, or claude-agent-acp's _auth/status_update). Label
// names the account in effect for display (its label, one plain line), never its e-mail.
type AuthStatus struct {
	State string `json:"state"`
	Label string `json:"label,omitempty"`
}

// authStatusWait bounds the auth/status call made after initialize.
const authStatusWait = 10 * time.Second

// askAuthStatus asks an agent that advertises agentCapabilities.auth.status for its sign-in
// state, once after initialize, on its own goroutine (a start never waits for it), and hands the
// answer to Config.OnAuthStatus. A failure is logged.
func (s *Session) askAuthStatus(conn *jsonrpc.Conn, caps AgentCapabilities) {
	if s.cfg.OnAuthStatus == nil || !objectCap(caps.Auth, "status") {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), authStatusWait)
		defer cancel()
		var res json.RawMessage
		if err := conn.Call(ctx, MethodAuthStatus, map[string]any{}, &res); err != nil {
			s.cfg.Logf("%s: auth/status: %v", s.cfg.AgentName, err)
			return
		}
		if st, ok := decodeAuthStatus(MethodAuthStatus, res); ok {
			s.cfg.OnAuthStatus(st)
		}
	}()
}

// authStatusUpdate takes auth/status_update or _auth/status_update and hands the state to
// Config.OnAuthStatus.
func (s *Session) authStatusUpdate(method string, params json.RawMessage) {
	if s.cfg.OnAuthStatus == nil {
		return
	}
	if st, ok := decodeAuthStatus(method, params); ok {
		s.cfg.OnAuthStatus(st)
	} else {
		s.cfg.Logf("%s: ignored %s that does not decode", s.cfg.AgentName, method)
	}
}

// decodeAuthStatus reads the schema's {state, accounts: [{label, active}]} (auth/status and its
// update) or claude-agent-acp's {authStatus: {kind, label}} (kind "none": not signed in).
func decodeAuthStatus(method string, raw json.RawMessage) (AuthStatus, bool) {
	if method == MethodAuthStatusClaude {
		var p struct {
			AuthStatus *struct {
				Kind  string `json:"kind"`
				Label string `json:"label"`
			} `json:"authStatus"`
		}
		if json.Unmarshal(raw, &p) != nil || p.AuthStatus == nil {
			return AuthStatus{}, false
		}
		st := AuthStatus{State: AuthAuthenticated, Label: plainLine(p.AuthStatus.Label, 120)}
		switch p.AuthStatus.Kind {
		case "none":
			st = AuthStatus{State: AuthUnauthenticated}
		case "":
			st.State = AuthUnknown
		}
		return st, true
	}
	var p struct {
		State    string `json:"state"`
		Accounts []struct {
			Label  string `json:"label"`
			Active *bool  `json:"active"`
		} `json:"accounts"`
	}
	if json.Unmarshal(raw, &p) != nil {
		return AuthStatus{}, false
	}
	st := AuthStatus{State: p.State}
	switch p.State {
	case AuthAuthenticated, AuthUnauthenticated, AuthNotRequired:
	default:
		st.State = AuthUnknown // the schema: a value not recognised is unknown
	}
	for _, a := range p.Accounts {
		if st.Label == "" || (a.Active != nil && *a.Active) {
			st.Label = plainLine(a.Label, 120)
		}
	}
	if st.State != AuthAuthenticated {
		st.Label = ""
	}
	return st, true
}
