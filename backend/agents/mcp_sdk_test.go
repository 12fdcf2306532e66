package agents

import (
	"encoding/json"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"agentdesk/backend/acp/schema"
)

// The mcpServers objects we send decode as the SDK's McpServer variants, field for field: the
// SDK's generated schema types are the reference for the wire shape.
func TestMCPWireMatchesTheSDKSchema(t *testing.T) {
	secret := func(string) (string, error) { return "tok", nil }
	stdio, err := MCPServer{Name: "files", Transport: schema.MCPStdio, Command: "/bin/mcp-files",
		Env: []EnvVar{{Name: "LEVEL", Value: "debug"}, {Name: "TOKEN", Secret: true}}}.wire(secret)
	if err != nil {
		t.Fatal(err)
	}
	var s sdk.McpServer
	if err := json.Unmarshal(stdio.JSON, &s); err != nil || s.Stdio == nil {
		t.Fatalf("stdio %s decodes as %+v (%v)", stdio.JSON, s, err)
	}
	if s.Stdio.Name != "files" || s.Stdio.Command != "/bin/mcp-files" || s.Stdio.Args == nil || len(s.Stdio.Env) != 2 || s.Stdio.Env[1].Value != "tok" {
		t.Fatalf("stdio fields %+v", s.Stdio)
	}
	for _, tr := range []string{schema.MCPHTTP, schema.MCPSSE} {
		w, err := MCPServer{Name: "web", Transport: tr, URL: "https://mcp.example.com/x",
			Headers: []EnvVar{{Name: "Authorization", Secret: true}}}.wire(secret)
		if err != nil {
			t.Fatal(err)
		}
		var m sdk.McpServer
		if err := json.Unmarshal(w.JSON, &m); err != nil {
			t.Fatalf("%s %s: %v", tr, w.JSON, err)
		}
		switch {
		case tr == schema.MCPHTTP && (m.Http == nil || m.Http.Url != "https://mcp.example.com/x" || m.Http.Headers[0].Value != "tok"):
			t.Fatalf("http %s decodes as %+v", w.JSON, m)
		case tr == schema.MCPSSE && (m.Sse == nil || m.Sse.Name != "web" || len(m.Sse.Headers) != 1):
			t.Fatalf("sse %s decodes as %+v", w.JSON, m)
		}
	}
}
