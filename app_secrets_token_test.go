package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/agents"
	"agentdesk/backend/export"
	"agentdesk/backend/store"
)

// bearerToken is the token of an MCP server's secret header "Bearer <token>".
const bearerToken = "mcpTok7Rq2Zx91"

// An agent given a secret header "Authorization: Bearer <token>" that echoes the token alone,
// with no "Bearer " before it, leaves no copy of it in the history file (any column of any table,
// the raw protocol messages included) nor in the Markdown export.
func TestAnEchoedBearerTokenIsMaskedAlone(t *testing.T) {
	isolatedConfig(t)
	a, rec := newTestApp(t)
	saveBearerServer(t, a, bearerToken)
	script := filepath.Join(t.TempDir(), "echo.json")
	if err := os.WriteFile(script, []byte(strings.ReplaceAll(`[
 {"expect":"initialize"}, {"reply":{"protocolVersion":1,"agentCapabilities":{"mcpCapabilities":{"http":true}}}},
 {"expect":"session/new"}, {"reply":{"sessionId":"echo-1"}},
 {"expect":"session/prompt"},
 {"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"The server's token is TOKEN."}}},
 {"update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"curl -H 'x-token: TOKEN'","kind":"execute","status":"completed"}},
 {"reply":{"stopReason":"end_turn"}}
]`, "TOKEN", bearerToken)), 0o600); err != nil {
		t.Fatal(err)
	}
	self, err := filepath.Abs(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.agents.SaveAgent(AgentSettings{Name: "Echo", Command: self, Args: "demo-agent --script '" + script + "'"}); err != nil {
		t.Fatal(err)
	}
	info, st := startAndWait(t, rec, func() (SessionInfo, error) { return a.sessions.StartSession("echo", t.TempDir(), nil, false, false) })
	if st != acp.StateIdle {
		t.Fatalf("start: %s", st)
	}
	if err := a.sessions.Prompt(info.SessionID, "which token?"); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, func(e acp.Event) bool { return e.SessionID == info.SessionID && e.Kind == acp.EventTurnEnd })
	a.flushHistory()
	md, err := a.history.ExportHistory(info.SessionID, export.Markdown)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(md, bearerToken) || !strings.Contains(md, "The server's token is "+agents.Mask) {
		t.Errorf("the Markdown export does not mask the token:\n%s", md)
	}
	raw, err := a.store.Messages(a.ctx, info.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	journal := ""
	for _, r := range raw {
		journal += string(r.JSON) + "\n"
	}
	if !strings.Contains(journal, "mcp.example.com") || !strings.Contains(journal, "The server's token is "+agents.Mask) {
		t.Fatalf("the journal lacks the header's server or the echo: the test no longer tests them:\n%s", journal)
	}
	a.shutdown(context.Background())
	if n := countSecretCells(t, os.Getenv("AGENTDESK_DB"), bearerToken); n != 0 {
		t.Fatalf("%d cells of the history hold the bare token", n)
	}
}

// saveBearerServer stores an MCP server whose secret header is "Bearer " + token.
func saveBearerServer(t *testing.T, a *App, token string) {
	t.Helper()
	if _, err := a.agents.SaveMCPServer(MCPSettings{Name: "web", Transport: "http", URL: "https://mcp.example.com/x",
		Headers: []AgentEnvVar{{Name: "Authorization", Value: "Bearer " + token, Secret: true}}}); err != nil {
		t.Fatal(err)
	}
}

// A token saved in the history before its header was stored as a secret is masked when the
// header is stored, and one saved by a version that masked only whole values is masked at the
// next start (the one-time pass runs again).
func TestABareTokenSavedBeforeIsMaskedInTheHistory(t *testing.T) {
	a := promptDemoInClear(t, "my token is "+bearerToken, bearerToken)
	db := os.Getenv("AGENTDESK_DB")
	saveBearerServer(t, a, bearerToken)
	a.masking.Wait()
	a.shutdown(context.Background())
	if n := countSecretCells(t, db, bearerToken); n != 0 {
		t.Fatalf("%d cells still hold the token after its header was stored", n)
	}

	// A file whose one-time pass ran before tokens were masked alone.
	old := filepath.Join(t.TempDir(), "old.db")
	s, err := store.Open(context.Background(), old)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Redact(context.Background(), store.Redaction{Once: "secrets-masked-v1", Mask: func(s string) string { return s }}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	raw := openRaw(t, old)
	if _, err := raw.Exec(`INSERT INTO sessions (id, agent_id, agent_name, cwd, title, outcome, created_at, updated_at)
		VALUES ('old-1', 'demo', 'Demo', '/tmp', ?, 'done', 1, 2)`, "use "+bearerToken); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	t.Setenv("AGENTDESK_DB", old)
	b, _ := newTestApp(t)
	<-b.masking.OnceDone()
	b.shutdown(context.Background())
	if n := countSecretCells(t, old, bearerToken); n != 0 {
		t.Fatalf("%d cells of a history masked by the older pass still hold the token", n)
	}
}
