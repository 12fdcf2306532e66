package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
)

// TestRunOutputJSON: run --output json writes one event per line, each an object of the event
// contract and nothing else (acp.Event, unknown fields refused), in seq order without a gap, the
// turn's turn_end last; the terminal's question goes to stderr, out of the stream.
func TestRunOutputJSON(t *testing.T) {
	isolatedConfig(t)
	dir, proj := t.TempDir(), t.TempDir()
	script := filepath.Join(dir, "turn.json")
	os.WriteFile(script, []byte("["+handshake+`
	{"expect":"session/prompt"},
	{"update":{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"thinking"}}},`+askEditA("a1")+`
	{"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"done \"quoted\"\n"}}},
	{"reply":{"stopReason":"end_turn"}}]`), 0o600)
	self, _ := os.Executable()
	var out, errOut bytes.Buffer
	code := runCLI([]string{"--db", filepath.Join(dir, "j.db"), "--agent-cmd", "'" + self + "' demo-agent --script " + script,
		"--cwd", proj, "--output", "json", "--permissions", "ask", "go"}, strings.NewReader("1\n"), &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(errOut.String(), "agentdesk run: starting ") {
		t.Errorf("no word of the agent starting on stderr: %q", errOut.String())
	}
	if !strings.Contains(errOut.String(), `Allow "Edit a.go"?`) {
		t.Errorf("the question is not on stderr: %q", errOut.String())
	}
	var events []acp.Event
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		var ev acp.Event
		if err := dec.Decode(&ev); err != nil {
			t.Fatalf("line %d is not an event of the contract: %v\n%s", len(events)+1, err, sc.Text())
		}
		if ev.SessionID == "" || ev.Kind == "" {
			t.Errorf("line %d lacks sessionId or kind: %s", len(events)+1, sc.Text())
		}
		if n := len(events); n > 0 && ev.Seq != events[n-1].Seq+1 {
			t.Errorf("seq %d after %d", ev.Seq, events[n-1].Seq)
		}
		events = append(events, ev)
	}
	kinds := map[acp.EventKind]int{}
	for _, ev := range events {
		kinds[ev.Kind]++
	}
	last := events[len(events)-1]
	if last.Kind != acp.EventTurnEnd || last.StopReason != schema.StopEndTurn || last.Receipt == nil {
		t.Errorf("the last line is %+v, want the turn end with its receipt", last)
	}
	if kinds[acp.EventPermission] != 1 || kinds[acp.EventPermissionDone] != 1 || kinds[acp.EventState] == 0 || kinds[acp.EventEntry] == 0 {
		t.Errorf("event kinds %v", kinds)
	}
}

// TestRunExitCodes: a refusal exits 5, an agent whose handshake fails 6, each said on stderr.
func TestRunExitCodes(t *testing.T) {
	isolatedConfig(t)
	dir := t.TempDir()
	self, _ := os.Executable()
	for _, c := range []struct {
		name, script string
		want         int
	}{
		{"refusal", "[" + handshake + `
			{"expect":"session/prompt"}, {"reply":{"stopReason":"refusal"}}]`, ExitRefused},
		{"no start", `[{"expect":"initialize"}, {"error":{"code":-32603,"message":"broken install"}}]`, ExitNoStart},
	} {
		script := filepath.Join(dir, c.name+".json")
		os.WriteFile(script, []byte(c.script), 0o600)
		var out, errOut bytes.Buffer
		code := runCLI([]string{"--db", filepath.Join(dir, "e.db"), "--agent-cmd", "'" + self + "' demo-agent --script " + script,
			"--cwd", dir, "--permissions", "reject", "go"}, strings.NewReader(""), &out, &errOut)
		if code != c.want {
			t.Errorf("%s: exit %d, want %d\n%s%s", c.name, code, c.want, out.String(), errOut.String())
		}
	}
}
