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
)

// bearerToken is the token of an MCP server's secret header "Bearer <token>".
const bearerToken = "mcpTok7Rq2Zx91"

// An agent given a secret header "Authorization: Bearer <token>" that echoes the token alone,
// with no "Bearer " before it, leaves no copy of it in the history file (any column of any table,
// the raw protocol messages included) nor in the Markdown export.
func TestAnEchoedBearerTokenIsMaskedAlone(t *testing.T) {
	isolatedConfig(t)
	a, rec := newTestApp(t)
	if _, err := a.agents.SaveMCPServer(MCPSettings{Name: "web", Transport: "http", URL: "https://mcp.example.com/x",
		Headers: []AgentEnvVar{{Name: "Authorization", Value: "Bearer " + bearerToken, Secret: true}}}); err != nil {
		t.Fatal(err)
	}
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
	info, st := startAndWait(t, rec, func() (SessionInfo, error) { return a.sessions.StartSession("echo", t.TempDir(), nil) })
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
