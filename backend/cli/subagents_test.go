package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunShowsSubagentsByTheirCard: `run` prints a subagent as one line per change of its card
// (title, state, why it stopped) and not the child's own messages (saved under the child's id),
// and a child's idle state does not end or restart the turn.
func TestRunShowsSubagentsByTheirCard(t *testing.T) {
	isolatedConfig(t)
	dir, proj := t.TempDir(), t.TempDir()
	script := filepath.Join(dir, "turn.json")
	os.WriteFile(script, []byte("["+handshake+`
	{"expect":"session/prompt"},
	{"update":{"sessionUpdate":"subagent_update","sessionId":"k1","title":"Explore","state":{"state":"running"}}},
	{"send":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"k1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"the child's own words"}}}}},
	{"update":{"sessionUpdate":"subagent_update","sessionId":"k1","state":{"state":"idle","stopReason":"end_turn"}}},
	{"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"parent done"}}},
	{"reply":{"stopReason":"end_turn"}}]`), 0o600)
	self, _ := os.Executable()
	var out, errOut bytes.Buffer
	code := runCLI([]string{"--db", filepath.Join(dir, "s.db"), "--agent-cmd", "'" + self + "' demo-agent --script " + script,
		"--cwd", proj, "go"}, strings.NewReader(""), &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	got := out.String()
	for _, want := range []string{"[subagent] Explore: running", "[subagent] Explore: idle (end_turn)", "parent done", "stop reason: end_turn"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "the child's own words") {
		t.Errorf("the child's own message is printed with the parent's:\n%s", got)
	}
}
