package cli

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestContinueAnAgentCmdSessionStartsTheSameCommand (issue 31): a session started with
// --agent-cmd keeps its command line as typed (its $VARIABLE unexpanded, so a secret passed that
// way is not written to the history), and `run --continue` starts that command again and adds the
// turn. --agent-cmd beside --continue is a usage error, as --agent is.
func TestContinueAnAgentCmdSessionStartsTheSameCommand(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("AGENTDESK_TEST_PACE", "1ms")
	line := "'" + self + "' demo-agent --pace $AGENTDESK_TEST_PACE"
	db := filepath.Join(t.TempDir(), "h.db")
	var out, errOut bytes.Buffer
	if code := runCLI([]string{"--db", db, "--permissions", "allow", "--agent-cmd", line, "--cwd", t.TempDir(), "first"},
		strings.NewReader(""), &out, &errOut); code != ExitOK {
		t.Fatalf("run: exit %d\n%s", code, errOut.String())
	}
	id, _ := savedTurns(t, db)
	if got := savedAgentCmd(t, db, id); got != line {
		t.Fatalf("the history keeps %q, want the line as typed %q", got, line)
	}

	out.Reset()
	errOut.Reset()
	if code := runCLI([]string{"--db", db, "--permissions", "allow", "--continue", id[:8], "second"}, strings.NewReader(""), &out, &errOut); code != ExitOK ||
		!strings.Contains(out.String(), "> second") {
		t.Fatalf("continue: exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
	if _, turns := savedTurns(t, db); len(turns) != 2 || turns[1].Prompt != "second" {
		t.Fatalf("after continue: turns %+v", turns)
	}
	errOut.Reset()
	if code := runCLI([]string{"--db", db, "--continue", id, "--agent-cmd", line, "third"}, strings.NewReader(""), &out, &errOut); code != ExitUsage {
		t.Fatalf("--agent-cmd beside --continue: exit %d, want %d\n%s", code, ExitUsage, errOut.String())
	}
}

// TestContinueWithoutItsAgentSaysWhatToDo (issue 31): continuing a session whose agent cannot be
// had — an --agent-cmd session saved before the history kept command lines, or an agent since
// deleted — exits 6 (ExitNoStart, as an unknown --agent does) and says what to do.
func TestContinueWithoutItsAgentSaysWhatToDo(t *testing.T) {
	db := savedDemoSession(t)
	id, _ := savedTurns(t, db)
	for _, c := range []struct {
		name, set, want string
	}{
		{"an old --agent-cmd session", `agent_id = 'custom', agent_cmd = ''`, "start a new session with --agent-cmd"},
		{"a deleted agent", `agent_id = 'gone'`, "`agentdesk agents` lists the agents there are"},
	} {
		t.Run(c.name, func(t *testing.T) {
			setSessionRow(t, db, id, c.set)
			var out, errOut bytes.Buffer
			code := runCLI([]string{"--db", db, "--permissions", "allow", "--continue", id, "again"}, strings.NewReader(""), &out, &errOut)
			if code != ExitNoStart || !strings.Contains(errOut.String(), c.want) {
				t.Fatalf("exit %d, want %d and %q\n%s", code, ExitNoStart, c.want, errOut.String())
			}
		})
	}
}

// savedAgentCmd reads session id's agent command line from the history file db.
func savedAgentCmd(t *testing.T, db, id string) string {
	t.Helper()
	sess, _, _, err := openHistory(t, db).Session(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return sess.AgentCmd
}

// setSessionRow changes session id's row in the history file db as SQL SET clause set says: a
// history written by another version, or an agent that has since gone.
func setSessionRow(t *testing.T, db, id, set string) {
	t.Helper()
	raw, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.ExecContext(context.Background(), `UPDATE sessions SET `+set+` WHERE id = ?`, id); err != nil {
		t.Fatal(err)
	}
}
