package acp_test

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// openParams starts (or, with a seed, reopens) a session configured by set against an agent
// of caps, and returns the params of the open call it sent (session/new, load or resume) and
// the session.
func openParams(t *testing.T, caps string, seed *acp.Seed, open string, set func(*acp.Config)) (json.RawMessage, *acp.Session) {
	t.Helper()
	sc := script(t, `[{"expect":"initialize"}, {"reply":{"protocolVersion":1,"agentCapabilities":`+caps+`}},
 {"expect":"`+open+`"}, {"reply":{"sessionId":"m1"}}]`)
	var mu sync.Mutex
	var sent json.RawMessage
	s, _ := runScript(t, sc, seed, func(c *acp.Config) {
		c.Journal = func(dir jsonrpc.Direction, method string, line []byte) {
			var msg struct {
				Params json.RawMessage `json:"params"`
			}
			if method == open && json.Unmarshal(line, &msg) == nil && msg.Params != nil {
				mu.Lock()
				defer mu.Unlock()
				sent = msg.Params
			}
		}
	}, set)
	mu.Lock()
	defer mu.Unlock()
	return sent, s
}

// mcpSession opens a session with three MCP servers (stdio, http, sse) and returns the names of
// those its open call passed.
func mcpSession(t *testing.T, caps string, seed *acp.Seed, open string) ([]string, *acp.Session) {
	t.Helper()
	servers := []acp.MCPServer{
		{Name: "files", Transport: schema.MCPStdio, JSON: json.RawMessage(`{"name":"files","command":"/bin/mcp","args":[],"env":[]}`)},
		{Name: "web", Transport: schema.MCPHTTP, JSON: json.RawMessage(`{"type":"http","name":"web","url":"https://x.test/mcp","headers":[]}`)},
		{Name: "old", Transport: schema.MCPSSE, JSON: json.RawMessage(`{"type":"sse","name":"old","url":"https://x.test/sse","headers":[]}`)},
	}
	raw, s := openParams(t, caps, seed, open, func(c *acp.Config) { c.MCPServers = servers })
	var p struct {
		MCPServers []struct{ Name string } `json:"mcpServers"`
	}
	if err := json.Unmarshal(raw, &p); err != nil || p.MCPServers == nil {
		t.Fatalf("%s params without an mcpServers array: %s (%v)", open, raw, err)
	}
	var names []string
	for _, m := range p.MCPServers {
		names = append(names, m.Name)
	}
	return names, s
}

// Servers go to the agent only in the transports its mcpCapabilities accept (stdio always),
// and the person is told, once, which were left out.
func TestMCPServersFilteredByAgentCapabilities(t *testing.T) {
	for _, tc := range []struct {
		caps, want, notice string
	}{
		{`{}`, "files", "web (http), old (sse)"},
		{`{"mcpCapabilities":{"http":true}}`, "files web", "old (sse)"},
		{`{"mcpCapabilities":{"http":true,"sse":true}}`, "files web old", ""},
	} {
		t.Run(tc.caps, func(t *testing.T) {
			sent, s := mcpSession(t, tc.caps, nil, "session/new")
			if got := strings.Join(sent, " "); got != tc.want {
				t.Fatalf("session/new got MCP servers %q, want %q", got, tc.want)
			}
			var notices []string
			for _, e := range s.Snapshot().Entries {
				if e.Kind == acp.KindNotice {
					notices = append(notices, e.Notice.Description)
				}
			}
			switch {
			case tc.notice == "" && len(notices) > 0:
				t.Fatalf("notices %q, want none", notices)
			case tc.notice != "" && (len(notices) != 1 || !strings.Contains(notices[0], tc.notice)):
				t.Fatalf("notices %q, want one naming %q", notices, tc.notice)
			}
		})
	}
}

// A reopened session passes its servers to session/load too.
func TestMCPServersPassedOnLoad(t *testing.T) {
	sent, _ := mcpSession(t, `{"loadSession":true,"mcpCapabilities":{"sse":true}}`,
		&acp.Seed{AgentSessionID: "m1", Title: "earlier"}, "session/load")
	if got := strings.Join(sent, " "); got != "files old" {
		t.Fatalf("session/load got MCP servers %q, want files and old", got)
	}
}
