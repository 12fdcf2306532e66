package interop

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/cli"
)

// TestTheCommandLineRunsAndContinuesTheRealAgent: `agentdesk run --agent-cmd … --output json`
// runs a turn of the real agent, and `run --continue ID` starts the same command line again and
// adds a turn the agent answers with the earlier one in its context.
func TestTheCommandLineRunsAndContinuesTheRealAgent(t *testing.T) {
	each(t, func(t *testing.T, f flavour, wire *Tripwire) {
		srv, url := f.serve(func(a Ask) Answer {
			if a.Side {
				return Say("Interop session")
			}
			return Say("Noted: " + a.Prompt)
		})
		defer srv.Close()
		agent := f.agent(t, wire, url, f.ask)
		onlyEnv(t, agent.Env) // an --agent-cmd agent runs in agentdesk's own environment
		db, proj := filepath.Join(t.TempDir(), "history.db"), t.TempDir()
		line := shellQuote(agent.Command)
		end, id := runJSON(t, "--db", db, "--cwd", proj, "--agent-cmd", line, "--output", "json", "remember the word kumquat")
		if end.StopReason != "end_turn" || id == "" {
			t.Fatalf("run: %+v (session %q)", end, id)
		}
		before := len(srv.Seen())
		if end, _ = runJSON(t, "--db", db, "--continue", id, "--output", "json", "which word was it?"); end.StopReason != "end_turn" {
			t.Fatalf("run --continue: %+v", end)
		}
		var held bool
		for _, s := range srv.Seen()[before:] {
			held = held || (!s.Ask.Side && strings.Contains(string(s.Body), "kumquat"))
		}
		if !held {
			t.Errorf("the continued turn's model request does not hold the first turn:\n%s", srv.Summary())
		}
	})
}

// runJSON runs `agentdesk run args…` and returns its turn_end event and session id; a non-zero
// exit fails the test with its stderr.
func runJSON(t *testing.T, args ...string) (acp.Event, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := cli.Run(context.Background(), append([]string{"run"}, args...), cli.Stdio{Out: &out, Err: &errOut}, cli.Options{}); code != cli.ExitOK {
		t.Fatalf("run %q: exit %d\n%s\n%s", args, code, errOut.String(), out.String())
	}
	var end acp.Event
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var ev acp.Event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("a line that is not an event: %q", sc.Text())
		}
		if ev.Kind == acp.EventTurnEnd {
			end = ev
		}
	}
	return end, end.SessionID
}

// onlyEnv makes env this process's whole environment until the test ends: nothing of the
// person's (a key, IS_SANDBOX=yes) reaches an agent that inherits it.
func onlyEnv(t *testing.T, env []string) {
	saved := os.Environ()
	t.Cleanup(func() {
		os.Clearenv()
		for _, kv := range saved {
			k, v, _ := strings.Cut(kv, "=")
			os.Setenv(k, v)
		}
	})
	os.Clearenv()
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		os.Setenv(k, v)
	}
}
