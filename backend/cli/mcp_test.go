package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --mcp passes exactly the named servers: an unknown name fails the run before the agent
// starts, naming the server; a known one (or none, with --mcp "") runs the turn.
func TestCLIRunMCPFlag(t *testing.T) {
	isolatedConfig(t)
	cfgDir := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "agentdesk")
	if err := os.MkdirAll(cfgDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfgDir, "agents.json"),
		[]byte(`{"agents":[],"mcpServers":[{"name":"files","transport":"stdio","command":"/bin/true"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := runCLI([]string{"--mcp", "nope", "--permissions", "reject", "--cwd", t.TempDir(), "hi"}, nil, &out, &errOut); code != ExitNoStart ||
		!strings.Contains(errOut.String(), `no MCP server "nope"`) {
		t.Fatalf("unknown --mcp: exit %d\n%s", code, errOut.String())
	}
	for _, args := range [][]string{{"--mcp", "files"}, {"--mcp", ""}} {
		out.Reset()
		errOut.Reset()
		if code := runCLI(append(args, "--permissions", "reject", "--cwd", t.TempDir(), "hi"), strings.NewReader(""), &out, &errOut); code != 0 {
			t.Fatalf("%q: exit %d\n%s\n%s", args, code, out.String(), errOut.String())
		}
	}
}
