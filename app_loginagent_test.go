package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// The login agent is a scripted fake agent run as a real process (this test binary, with
// AGENTDESK_TEST_AGENT=login in its environment): it needs a login before session/new, like
// Gemini CLI and the Codex adapter, and offers one method of each type.
//
//   - browser (agent): authenticate writes the state file ($ACME_STATE), as a browser login
//     leaves credentials behind.
//   - api-key (env_var): authenticate succeeds only with ACME_API_KEY in its environment.
//   - cli-login (terminal): `<agent> login` with ACME_LOGIN=1 writes the state file.
//
// With ACME_ASK_ON=prompt it opens sessions logged out and asks for the login when prompted
// instead, like the Claude Code adapter.
//
// Its prompt echoes its secrets (ACME_TOKEN, ACME_API_KEY) in a message, as a careless agent
// would, and prints them on stdout outside the protocol, for the masking tests.
func init() {
	if os.Getenv("AGENTDESK_TEST_AGENT") != "login" {
		return
	}
	if len(os.Args) > 1 && os.Args[1] == "login" {
		if os.Getenv("ACME_LOGIN") != "1" {
			fmt.Fprintln(os.Stderr, "login: ACME_LOGIN is not set: the method's env was not passed")
			os.Exit(3)
		}
		os.Exit(writeState("terminal"))
	}
	a := &loginAgent{}
	a.conn = jsonrpc.NewConn(os.Stdin, os.Stdout, a, jsonrpc.WithLogf(func(string, ...any) {}))
	<-a.conn.Done()
	os.Exit(0)
}

const loginAgentMethods = `[
 {"id":"browser","name":"Log in with a browser","description":"Opens acme.example in your browser"},
 {"id":"api-key","name":"Use an API key","type":"env_var","link":"https://acme.example/keys",
  "vars":[{"name":"ACME_API_KEY","label":"Acme API key"}]},
 {"id":"cli-login","name":"Log in in a terminal","type":"terminal","args":["login"],"env":{"ACME_LOGIN":"1"}}]`

type loginAgent struct {
	conn      *jsonrpc.Conn
	keyAuthed bool // authenticate api-key succeeded in this process
}

// loggedIn: a login left its state file, or an API key was accepted in this process.
func (a *loginAgent) loggedIn() bool {
	_, err := os.Stat(os.Getenv("ACME_STATE"))
	return err == nil || a.keyAuthed
}

func writeState(how string) int {
	if err := os.WriteFile(os.Getenv("ACME_STATE"), []byte(how), 0o600); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

func (a *loginAgent) HandleNotification(string, json.RawMessage) {}

func (a *loginAgent) HandleRequest(req *jsonrpc.Request) {
	authRequired := &jsonrpc.Error{Code: schema.CodeAuthRequired, Message: "Authentication required: log in to Acme"}
	switch req.Method {
	case schema.MethodInitialize:
		req.Reply(map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{}, "authMethods": json.RawMessage(loginAgentMethods)}, nil)
	case "authenticate":
		var p struct {
			MethodID string `json:"methodId"`
		}
		_ = json.Unmarshal(req.Params, &p)
		switch {
		case p.MethodID == "browser" && writeState("browser") == 0:
			req.Reply(struct{}{}, nil)
		case p.MethodID == "api-key" && os.Getenv("ACME_API_KEY") != "":
			a.keyAuthed = true
			req.Reply(struct{}{}, nil)
		default:
			req.Reply(nil, authRequired)
		}
	case schema.MethodSessionNew:
		if !a.loggedIn() && os.Getenv("ACME_ASK_ON") != "prompt" {
			req.Reply(nil, authRequired)
			return
		}
		req.Reply(map[string]any{"sessionId": "acme-1"}, nil)
	case schema.MethodSessionPrompt:
		if !a.loggedIn() {
			req.Reply(nil, authRequired)
			return
		}
		secrets := fmt.Sprintf("token=%s key=%s", os.Getenv("ACME_TOKEN"), os.Getenv("ACME_API_KEY"))
		fmt.Fprintln(os.Stdout, "debug: "+secrets) // not JSON: the client logs and skips it
		_ = a.conn.Notify("session/update", map[string]any{"sessionId": "acme-1", "update": map[string]any{
			"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": "I see " + secrets}}})
		req.Reply(map[string]any{"stopReason": "end_turn"}, nil)
	default:
		req.Reply(nil, &jsonrpc.Error{Code: schema.CodeMethodNotFound, Message: req.Method})
	}
}

// isolatedConfig points agentdesk's configuration and history at temp folders, with no
// keyring (as on CI: secrets go to the 0600 file) and no login-shell capture.
func isolatedConfig(t *testing.T) (configDir string) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("AGENTDESK_DB", filepath.Join(dir, "history.db"))
	t.Setenv("AGENTDESK_NO_LOGIN_ENV", "1")
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", dir)
	return filepath.Join(dir, "agentdesk")
}

// saveLoginAgent adds the login agent as the custom agent "acme", with a secret ACME_TOKEN,
// and returns the path of its state file (absent: logged out).
func saveLoginAgent(t *testing.T, a *App, token string) string {
	t.Helper()
	self, err := filepath.Abs(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(t.TempDir(), "acme-state")
	info, err := a.agents.SaveAgent(AgentSettings{Name: "Acme", Command: self, Env: []AgentEnvVar{
		{Name: "AGENTDESK_TEST_AGENT", Value: "login"}, {Name: "ACME_STATE", Value: state},
		{Name: "ACME_TOKEN", Value: token, Secret: true}}})
	if err != nil || info.ID != "acme" || !info.Available || !info.Custom {
		t.Fatalf("SaveAgent: %+v, %v", info, err)
	}
	return state
}

// startAndWait starts agentID and waits for its session to be idle or failed.
func startAndWait(t *testing.T, rec *recordingEmitter, start func() (SessionInfo, error)) (SessionInfo, acp.State) {
	t.Helper()
	info, err := start()
	if err != nil {
		t.Fatal(err)
	}
	ev := rec.waitFor(t, func(e acp.Event) bool {
		return e.SessionID == info.SessionID && e.Kind == acp.EventState && (e.State == acp.StateIdle || e.State == acp.StateFailed)
	})
	return info, ev.State
}
