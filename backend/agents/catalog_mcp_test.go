package agents

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/acp/schema"
)

func mcpCatalog(t *testing.T) (*Catalog, *memSecrets, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "agents.json")
	keys := &memSecrets{m: map[string]string{}}
	return NewCatalog(nil, nil, &ConfigFile{Path: path}, keys), keys, path
}

// MCP servers are kept in agents.json without their secrets, which go to the keyring; each
// agent gets those for it (or every agent), in ACP's shape, with the secrets filled in and
// known to the masker; the CLI's names pick exactly those.
func TestMCPServersSavedScopedAndPassed(t *testing.T) {
	c, keys, path := mcpCatalog(t)
	if _, err := c.SaveMCPServer(MCPServer{Name: "github", Transport: schema.MCPHTTP, URL: "https://mcp.example.com/gh",
		Headers: []EnvVar{{Name: "Authorization", Secret: true}}, Command: "ignored"}, map[string]string{"Authorization": "Bearer s3cret-token"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.SaveMCPServer(MCPServer{Name: "files", Transport: schema.MCPStdio, Command: "mcp-files", Args: []string{"--root", "/p"},
		Env: []EnvVar{{Name: "LEVEL", Value: "debug"}}, Agents: []string{"claude"}}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.SaveMCPServer(MCPServer{Name: "off", Transport: schema.MCPSSE, URL: "http://localhost:9/sse", Disabled: true}, nil); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	if strings.Contains(string(raw), "s3cret") || !strings.Contains(string(raw), `"mcpServers"`) || strings.Contains(string(raw), "ignored") {
		t.Fatalf("agents.json holds the secret, lacks the servers, or kept another transport's fields:\n%s", raw)
	}
	if keys.m["mcp:github/Authorization"] != "Bearer s3cret-token" {
		t.Fatalf("keyring %v", keys.m)
	}

	names := func(ws []MCPWire) string {
		var out []string
		for _, w := range ws {
			out = append(out, w.Name+"/"+w.Transport)
		}
		return strings.Join(out, " ")
	}
	claude, err := c.MCPFor("claude", nil)
	if err != nil || names(claude) != "github/http files/stdio" {
		t.Fatalf("claude gets %q, %v", names(claude), err)
	}
	if gemini, _ := c.MCPFor("gemini", nil); names(gemini) != "github/http" {
		t.Fatalf("gemini gets %q: files is claude's only, off is disabled", names(gemini))
	}
	var gh struct {
		Type    string `json:"type"`
		URL     string `json:"url"`
		Headers []struct{ Name, Value string }
	}
	if err := json.Unmarshal(claude[0].JSON, &gh); err != nil || gh.Type != "http" || gh.Headers[0].Value != "Bearer s3cret-token" {
		t.Fatalf("github on the wire: %s", claude[0].JSON)
	}
	if want := `{"name":"files","command":"mcp-files","args":["--root","/p"],"env":[{"name":"LEVEL","value":"debug"}]}`; string(claude[1].JSON) != want {
		t.Fatalf("files on the wire:\n%s\nwant\n%s", claude[1].JSON, want)
	}
	if got := c.Masker().Mask("auth: Bearer s3cret-token"); strings.Contains(got, "s3cret") {
		t.Fatalf("the masker does not know the header's value: %q", got)
	}

	picked, err := c.MCPFor("gemini", []string{"off"})
	if err != nil || names(picked) != "off/sse" {
		t.Fatalf("--mcp off: %q, %v", names(picked), err)
	}
	if _, err := c.MCPFor("gemini", []string{"nope"}); err == nil || !strings.Contains(err.Error(), `no MCP server "nope"`) {
		t.Fatalf("an unknown name: %v", err)
	}

	// Saved again without the secret: the stored value stays. Deleted: the secret goes too.
	if _, err := c.SaveMCPServer(MCPServer{Name: "github", Transport: schema.MCPHTTP, URL: "https://mcp.example.com/v2",
		Headers: []EnvVar{{Name: "Authorization", Secret: true}}}, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteMCPServer("github"); err != nil {
		t.Fatal(err)
	}
	if _, ok := keys.m["mcp:github/Authorization"]; ok || len(c.MCPServers()) != 2 {
		t.Fatalf("after delete: keyring %v, servers %+v", keys.m, c.MCPServers())
	}
}

func TestMCPServerValidation(t *testing.T) {
	for _, c := range []struct {
		m    MCPServer
		want string
	}{
		{MCPServer{Transport: schema.MCPStdio, Command: "x"}, "give the MCP server a name"},
		{MCPServer{Name: "a", Transport: "websocket"}, `transport "websocket" is not stdio, http or sse`},
		{MCPServer{Name: "a", Transport: schema.MCPStdio}, "needs the command"},
		{MCPServer{Name: "a", Transport: schema.MCPStdio, Command: "bin/x"}, "must be a name found on PATH or an absolute path"},
		{MCPServer{Name: "a", Transport: schema.MCPStdio, Command: "x", Env: []EnvVar{{Name: "1BAD"}}}, `"1BAD" is not a variable name`},
		{MCPServer{Name: "a", Transport: schema.MCPHTTP, URL: "file:///etc/passwd"}, "is not an http or https URL"},
		{MCPServer{Name: "a", Transport: schema.MCPSSE, URL: "https://h/sse", Headers: []EnvVar{{Name: "Bad Header"}}}, `"Bad Header" is not a header name`},
		{MCPServer{Name: "a", Transport: schema.MCPHTTP, URL: "https://h", Headers: []EnvVar{{Name: "X"}, {Name: "X"}}}, "the header X is listed twice"},
	} {
		if err := c.m.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.m, err, c.want)
		}
	}
	cat, _, _ := mcpCatalog(t)
	if _, err := cat.SaveMCPServer(MCPServer{Name: "s", Transport: schema.MCPHTTP, URL: "https://h", Headers: []EnvVar{{Name: "X-Key", Secret: true}}}, nil); err == nil ||
		!strings.Contains(err.Error(), "give a value for the secret X-Key") {
		t.Fatalf("a new secret without a value: %v", err)
	}
}
