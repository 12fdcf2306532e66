package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/store"
)

// TestRunContinueAddsATurnUnderTheSameID: `run --continue PREFIX` adds a turn to a saved
// session, under its id, with its agent in its folder; the demo agent cannot resume, so it is
// given a summary, and the transcript says so. A prefix that matches nothing, or --agent beside
// --continue, is a usage error.
func TestRunContinueAddsATurnUnderTheSameID(t *testing.T) {
	db := savedDemoSession(t)
	var out, errOut bytes.Buffer
	ctx := context.Background()
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := st.ListSessions(ctx, "", 0)
	st.Close()
	if err != nil || len(rows) != 1 {
		t.Fatalf("history %+v, %v", rows, err)
	}
	id := rows[0].ID

	out.Reset()
	errOut.Reset()
	code := runCLI([]string{"--db", db, "--permissions", "allow", "--continue", id[:8], "second"}, strings.NewReader(""), &out, &errOut)
	if code != ExitOK || !strings.Contains(out.String(), "── new agent session: the agent was given a summary of the earlier turns ──") ||
		!strings.Contains(out.String(), "> second") || strings.Contains(out.String(), "> first") {
		t.Fatalf("continue: exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
	st, err = store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rows, _ = st.ListSessions(ctx, "", 0)
	_, turns, _, err := st.Session(ctx, id)
	if err != nil || len(rows) != 1 || len(turns) != 2 || turns[1].Prompt != "second" || turns[0].Prompt != "first" {
		t.Fatalf("after continue: %d sessions, turns %+v, %v", len(rows), turns, err)
	}

	for _, args := range [][]string{
		{"--db", db, "--continue", "nothing-like-it", "third"},
		{"--db", db, "--continue", id, "--agent", "demo", "third"},
	} {
		errOut.Reset()
		if code := runCLI(args, strings.NewReader(""), &out, &errOut); code != ExitUsage {
			t.Errorf("run %v: exit %d, want %d\n%s", args, code, ExitUsage, errOut.String())
		}
	}
}

// savedDemoSession saves one demo turn ("first", permissions allowed) in a fresh history in a
// fresh folder, with the config isolated and the demo unpaced, and returns the history's file:
// the start of every test that continues a saved session.
func savedDemoSession(t *testing.T) string {
	t.Helper()
	isolatedConfig(t)
	t.Setenv("AGENTDESK_DEMO_PACE", "0s")
	dir := t.TempDir()
	db := filepath.Join(dir, "h.db")
	var out, errOut bytes.Buffer
	if code := runCLI([]string{"--db", db, "--permissions", "allow", "--cwd", dir, "first"}, strings.NewReader(""), &out, &errOut); code != ExitOK {
		t.Fatalf("first run: exit %d\n%s", code, errOut.String())
	}
	return db
}
