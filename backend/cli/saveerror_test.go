package cli

import (
	"bytes"
	"context"
	"database/sql"
	"strings"
	"testing"

	_ "modernc.org/sqlite"
)

// TestRunSaysWhenSavingATurnFails: a write of the live session that the history refuses (here
// a trigger refuses the turn's row, as the unique key refused a second owner's) is told on
// stderr as it happens, and the exit code says the session is not saved in full: never only
// logged.
func TestRunSaysWhenSavingATurnFails(t *testing.T) {
	db := savedDemoSession(t)
	var out, errOut bytes.Buffer
	id, _ := savedTurns(t, db)
	raw, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	_, err = raw.ExecContext(context.Background(), `CREATE TRIGGER refuse_boom BEFORE INSERT ON turns WHEN NEW.prompt = 'boom'
		BEGIN SELECT RAISE(ABORT, 'injected failure'); END`)
	raw.Close()
	if err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errOut.Reset()
	code := runCLI([]string{"--db", db, "--permissions", "allow", "--continue", id, "boom"}, strings.NewReader(""), &out, &errOut)
	said := errOut.String()
	if code == ExitOK || !strings.Contains(said, "agentdesk run: saving the session failed") || !strings.Contains(said, "injected failure") {
		t.Fatalf("a turn the history refused: exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), said)
	}
	t.Logf("exit %d\n%s", code, said)
}
