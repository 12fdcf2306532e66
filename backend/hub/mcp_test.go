package hub

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/agents"
)

// The catalog's MCP servers reach the agent's session/new, their secrets never reach the saved
// journal, and a server named for the CLI that does not exist fails the start before anything
// is created.
func TestStartPassesCatalogMCPServers(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	st := openTestStore(t, filepath.Join(dir, "history.db"))
	defer st.Close()
	agent := scriptAgent(t, dir, "a", `[{"expect":"initialize"},
 {"reply":{"protocolVersion":1,"agentCapabilities":{"mcpCapabilities":{"http":true}}}},
 {"expect":"session/new"}, {"reply":{"sessionId":"m1"}}]`)
	cat := agents.NewCatalog([]agents.Agent{agent}, nil, &agents.ConfigFile{Path: filepath.Join(dir, "agents.json")},
		agents.OpenSecrets(filepath.Join(dir, "secrets")))
	if _, err := cat.SaveMCPServer(agents.MCPServer{Name: "web", Transport: schema.MCPHTTP, URL: "https://mcp.example.com/x",
		Headers: []agents.EnvVar{{Name: "Authorization", Secret: true}}}, map[string]string{"Authorization": "Bearer mcp-s3cret"}); err != nil {
		t.Fatal(err)
	}
	h := New(st, cat, t.Logf)
	defer h.CloseAll(ctx)

	if _, _, err := h.Start(StartRequest{AgentID: "a", Cwd: dir, MCP: []string{"nope"}}, acp.EmitterFunc(func(acp.Event) {})); err == nil ||
		!strings.Contains(err.Error(), `no MCP server "nope"`) {
		t.Fatalf("start with an unknown MCP server: %v", err)
	}
	if list, err := st.ListSessions(ctx, "", 10); err != nil || len(list) != 0 {
		t.Fatalf("a failed start left sessions %v (%v)", list, err)
	}

	s, _ := idleSession(t, h, dir)
	newLine := savedRequest(t, st, s.ID(), "session/new")
	if !strings.Contains(newLine, `"name":"web"`) || !strings.Contains(newLine, "mcp.example.com") {
		t.Fatalf("session/new as saved does not pass the server: %s", newLine)
	}
	if strings.Contains(newLine, "mcp-s3cret") {
		t.Fatalf("the saved journal holds the MCP secret: %s", newLine)
	}
}
