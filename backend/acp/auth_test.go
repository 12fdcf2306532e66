package acp_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// loginAgent refuses session/new with -32000 until authenticate succeeds, like Gemini CLI and
// the Codex adapter.
type loginAgent struct {
	conn          *jsonrpc.Conn
	authenticated atomic.Bool
	calls         atomic.Int32
	initParams    json.RawMessage
}

const loginMethods = `[{"id":"browser","name":"Log in with a browser"},
 {"id":"api-key","name":"Use an API key","type":"env_var","vars":[{"name":"ACME_API_KEY"}]},
 {"id":"cli-login","name":"Log in in a terminal","type":"terminal","args":["auth","login"]}]`

func (a *loginAgent) HandleNotification(string, json.RawMessage) {}
func (a *loginAgent) HandleRequest(req *jsonrpc.Request) {
	switch req.Method {
	case schema.MethodInitialize:
		a.initParams = req.Params
		req.Reply(map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{}, "authMethods": json.RawMessage(loginMethods)}, nil)
	case acp.MethodAuthenticate:
		a.calls.Add(1)
		a.authenticated.Store(true)
		req.Reply(struct{}{}, nil)
	case schema.MethodSessionNew:
		if !a.authenticated.Load() {
			req.Reply(nil, &jsonrpc.Error{Code: schema.CodeAuthRequired, Message: "Authentication required"})
			return
		}
		req.Reply(map[string]any{"sessionId": "a1"}, nil)
	default:
		req.Reply(nil, &jsonrpc.Error{Code: schema.CodeMethodNotFound, Message: req.Method})
	}
}

func startLogin(t *testing.T, method string) (*acp.Session, *loginAgent, error) {
	t.Helper()
	a := &loginAgent{}
	s := acp.NewSession(acp.Config{ID: "s1", AgentName: "Acme", Cwd: "/p", Emitter: newEvents(), Logf: t.Logf, AuthMethod: method,
		Launch: func(context.Context) (acp.Transport, error) {
			return acptest.ServeHandler(func(c *jsonrpc.Conn) jsonrpc.Handler { a.conn = c; return a }), nil
		}})
	t.Cleanup(func() { s.Close() })
	return s, a, s.Start(context.Background())
}

func TestAuthRequiredListsTheMethods(t *testing.T) {
	s, _, err := startLogin(t, "")
	var authErr *acp.AuthRequiredError
	if !errors.As(err, &authErr) || len(authErr.Methods) != 3 {
		t.Fatalf("Start: %v, want an AuthRequiredError with the three methods", err)
	}
	for _, want := range []string{"browser (agent)", "api-key (env_var)", "set ACME_API_KEY", "cli-login (terminal)", "auth login"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message lacks %q:\n%s", want, err)
		}
	}
	if s.State() != acp.StateFailed {
		t.Fatalf("state %s, want failed", s.State())
	}
	var stateErr *acp.StateError
	if _, err := s.Prompt("hello"); !errors.Is(err, acp.ErrEnded) || !errors.As(err, &stateErr) || stateErr.State != acp.StateFailed {
		t.Fatalf("prompt on a failed session: %v, want ErrEnded in state failed", err)
	}
}

func TestAuthMethodsAreUsed(t *testing.T) {
	for _, m := range []string{"browser", "api-key"} {
		s, a, err := startLogin(t, m)
		if err != nil || s.State() != acp.StateIdle || a.calls.Load() != 1 {
			t.Fatalf("%s: Start %v, state %s, %d authenticate calls", m, err, s.State(), a.calls.Load())
		}
	}
	_, a, err := startLogin(t, "cli-login")
	if !errors.Is(err, acp.ErrTerminalLogin) || !strings.Contains(err.Error(), "terminal login") || a.calls.Load() != 0 {
		t.Fatalf("terminal method: %v (authenticate called %d times, want 0)", err, a.calls.Load())
	}
	if _, _, err := startLogin(t, "nope"); !errors.Is(err, acp.ErrNotOffered) || !strings.Contains(err.Error(), "browser, api-key, cli-login") {
		t.Fatalf("unknown method: %v", err)
	}
}

// Terminal logins and boolean config options are implemented (the app runs or shows the
// command; it shows a switch), so initialize says so: agents offer terminal methods only to
// clients that advertise auth.terminal, and boolean options only with session.configOptions.boolean.
func TestTerminalLoginsAreAdvertised(t *testing.T) {
	_, a, _ := startLogin(t, "browser")
	var p struct {
		ClientCapabilities struct {
			Auth struct {
				Terminal bool `json:"terminal"`
			} `json:"auth"`
			Session struct {
				ConfigOptions struct {
					Boolean *struct{} `json:"boolean"`
				} `json:"configOptions"`
			} `json:"session"`
		} `json:"clientCapabilities"`
	}
	if err := json.Unmarshal(a.initParams, &p); err != nil || !p.ClientCapabilities.Auth.Terminal {
		t.Fatalf("initialize params %s: want clientCapabilities.auth.terminal true", a.initParams)
	}
	if p.ClientCapabilities.Session.ConfigOptions.Boolean == nil {
		t.Fatalf("initialize params %s: want clientCapabilities.session.configOptions.boolean {}", a.initParams)
	}
}
