package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// shellTurn plays an agent whose turn runs one shell command in a terminal of ours: the files
// it changes are written by the command, never through fs/*.
const shellTurn = "[" + handshake + `
	{"expect":"session/prompt"},
	{"call":"terminal/create","params":{"command":"sh","args":["-c","printf 'one\\nTWO\\nthree\\n' > a.txt; rm b.txt; printf made > made.txt"]},"want":"term-1"},
	{"call":"terminal/wait_for_exit","params":{"terminalId":"term-1"}},
	{"reply":{"stopReason":"end_turn"}}]`

// TestCLIChangesAndRevert: changes prints the turn's diff; revert asks first, refuses over a
// later edit with exit 4, and with --yes puts every file back.
func TestCLIChangesAndRevert(t *testing.T) {
	dir, proj := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(proj, "a.txt"), []byte("one\ntwo\nthree\n"), 0o644)
	os.WriteFile(filepath.Join(proj, "b.txt"), []byte("bee\n"), 0o644)
	script := filepath.Join(dir, "shell.json")
	os.WriteFile(script, []byte(shellTurn), 0o600)
	self, _ := os.Executable()
	db := filepath.Join(dir, "c.db")
	var out, errOut bytes.Buffer
	if code := runCLI([]string{"--db", db, "--agent-cmd", "'" + self + "' demo-agent --script " + script, "--cwd", proj, "go"},
		strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("run exit %d: %s", code, errOut.String())
	}
	out.Reset()
	historyCLI([]string{"--db", db}, nil, &out, &errOut)
	id := strings.Fields(out.String())[0][:8]

	out.Reset()
	if code := execute(nil, &out, &errOut, "changes", "--db", db, id); code != 0 {
		t.Fatalf("changes exit %d: %s", code, errOut.String())
	}
	for _, want := range []string{"# turn 1: go", "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n",
		"--- a/b.txt\n+++ /dev/null\n", "--- /dev/null\n+++ b/made.txt\n@@ -1,0 +1,1 @@\n+made\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("changes lacks %q:\n%s", want, out.String())
		}
	}

	out.Reset()
	errOut.Reset()
	if code := execute(strings.NewReader("n\n"), &out, &errOut, "revert", "--db", db, id, "--turn", "1"); code != ExitConflict ||
		!strings.Contains(out.String(), "delete    made.txt") || !strings.Contains(errOut.String(), "nothing was reverted") {
		t.Fatalf("declined revert: exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	os.WriteFile(filepath.Join(proj, "a.txt"), []byte("my own edit\n"), 0o644)
	out.Reset()
	if code := execute(nil, &out, &errOut, "revert", "--db", db, id, "--turn", "1", "--yes"); code != ExitConflict ||
		!strings.Contains(out.String(), "conflict  a.txt: it was changed after this turn") {
		t.Fatalf("revert over an edit: exit %d\n%s", code, out.String())
	}
	os.WriteFile(filepath.Join(proj, "a.txt"), []byte("one\nTWO\nthree\n"), 0o644)
	out.Reset()
	if code := execute(nil, &out, &errOut, "revert", "--db", db, id, "--turn", "1", "--yes"); code != 0 {
		t.Fatalf("revert exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	for p, want := range map[string]string{"a.txt": "one\ntwo\nthree\n", "b.txt": "bee\n"} {
		if b, _ := os.ReadFile(filepath.Join(proj, p)); string(b) != want {
			t.Errorf("%s = %q, want %q", p, b, want)
		}
	}
	if _, err := os.Stat(filepath.Join(proj, "made.txt")); !os.IsNotExist(err) {
		t.Errorf("made.txt survived the revert: %v", err)
	}
}
