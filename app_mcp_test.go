package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// The MCP editor's verbs keep secrets one way (page → keyring), keep a blank secret's stored
// value, rename by Was, and refuse what is invalid with the reason.
func TestMCPEditorVerbs(t *testing.T) {
	isolatedConfig(t)
	a, _ := newTestApp(t)
	const token = "Bearer mcp-tok-4242"
	saved, err := a.agents.SaveMCPServer(MCPSettings{Name: "github", Transport: "http", URL: "https://mcp.example.com/gh",
		Headers: []AgentEnvVar{{Name: "Authorization", Value: token, Secret: true}, {}}, Agents: []string{"claude"}})
	if err != nil {
		t.Fatal(err)
	}
	list := a.agents.ListMCPServers()
	if raw, _ := json.Marshal(list); strings.Contains(string(raw), token) {
		t.Fatalf("ListMCPServers sends the secret to the page: %s", raw)
	}
	if len(list) != 1 || list[0].Was != "github" || len(list[0].Headers) != 1 || !list[0].Headers[0].IsSet || list[0].Agents[0] != "claude" {
		t.Fatalf("listed %+v", list)
	}
	saved.Agents = nil // every agent now; the blank secret keeps its value
	if _, err := a.agents.SaveMCPServer(saved); err != nil {
		t.Fatal(err)
	}
	if w, err := a.catalog.MCPFor("gemini", nil); err != nil || len(w) != 1 || !strings.Contains(string(w[0].JSON), token) {
		t.Fatalf("MCPFor after a blank save: %v %v", w, err)
	}
	saved.Name = "gh" // renamed: the secret is kept by name, so it must be given again
	if _, err := a.agents.SaveMCPServer(saved); err == nil || !strings.Contains(err.Error(), "Authorization") {
		t.Fatalf("rename without the secret: %v", err)
	}
	saved.Headers[0].Value = token
	if _, err := a.agents.SaveMCPServer(saved); err != nil {
		t.Fatal(err)
	}
	if list := a.agents.ListMCPServers(); len(list) != 1 || list[0].Name != "gh" {
		t.Fatalf("after the rename %+v", list)
	}
	if _, err := a.agents.SaveMCPServer(MCPSettings{Name: "x", Transport: "stdio"}); err == nil || !strings.Contains(err.Error(), "command") {
		t.Fatalf("a stdio server without a command: %v", err)
	}
	if err := a.agents.DeleteMCPServer("gh"); err != nil || len(a.agents.ListMCPServers()) != 0 {
		t.Fatalf("delete: %v", err)
	}
}
