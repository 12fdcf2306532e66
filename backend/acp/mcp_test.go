package acp_test

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/jsonrpc"
)

// mcpSession starts a session with the three MCP servers against an agent of caps and returns
// the mcpServers it sent in session/new (and, reopened, session/load), and the session.
func mcpSession(t *testing.T, caps string, seed *acp.Seed, open string) ([]string, *acp.Session) {
	t.Helper()
	sc := script(t, `[{"expect":"initialize"}, {"reply":{"protocolVersion":1,"agentCapabilities":`+caps+`}},
 {"expect":"`+open+`"}, {"reply":{"sessionId":"m1"}}]`)
	servers := []acp.MCPServer{
		{Name: "files", Transport: acp.MCPStdio, JSON: json.RawMessage(`{"name":"files","command":"/bin/mcp","args":[],"env":[]}`)},
		{Name: "web", Transport: acp.MCPHTTP, JSON: json.RawMessage(`{"type":"http","name":"web","url":"https://x.test/mcp","headers":[]}`)},
		{Name: "old", Transport: acp.MCPSSE, JSON: json.RawMessage(`{"type":"sse","name":"old","url":"https://x.test/sse","headers":[]}`)},
	}
	var mu sync.Mutex
	var sent []string
	s := acp.NewSession(acp.Config{ID: "s1", AgentName: "scripted", Cwd: "/p", Emitter: newEvents(), Logf: t.Logf,
		Seed: seed, MCPServers: servers,
		Journal: func(dir jsonrpc.Direction, method string, line []byte) {
			if method != open || !strings.Contains(string(line), `"params"`) {
				return
			}
			var msg struct {
				Params struct {
					MCPServers []struct{ Name string } `json:"mcpServers"`
				} `json:"params"`
			}
			if err := json.Unmarshal(line, &msg); err != nil || msg.Params.MCPServers == nil {
				t.Errorf("%s params: %s (%v)", open, line, err)
			}
			mu.Lock()
			defer mu.Unlock()
			for _, m := range msg.Params.MCPServers {
				sent = append(sent, m.Name)
			}
		},
		Launch: func(context.Context) (acp.Transport, error) {
			return acptest.Serve(func(in io.Reader, out io.Writer) error { return sc.Run(in, out) }), nil
		}})
	t.Cleanup(func() { s.Close() })
	var err error
	if seed != nil {
		_, err = s.Reopen(context.Background())
	} else {
		err = s.Start(context.Background())
	}
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	return sent, s
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
