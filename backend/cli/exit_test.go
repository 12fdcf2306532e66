package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCLIAskWithNoTerminalStopsAndSaysSo: with --permissions ask and nothing to read on stdin,
// a permission request stops the turn with a message that says why and what to do, and the
// exit code is not 0. It used to wait silently for ever.
func TestCLIAskWithNoTerminalStopsAndSaysSo(t *testing.T) {
	t.Setenv("AGENTDESK_DEMO_PACE", "0s")
	var out, errOut bytes.Buffer
	code := runCLI([]string{"--db", filepath.Join(t.TempDir(), "h.db"), "--permissions", "ask", "--cwd", t.TempDir(), "edit"},
		strings.NewReader(""), &out, &errOut)
	if code != 1 {
		t.Fatalf("exit %d, want 1; stdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
	if msg := errOut.String(); !strings.Contains(msg, "no terminal to ask on") || !strings.Contains(msg, "--permissions allow or reject") {
		t.Fatalf("stderr does not say why the turn stopped:\n%s", msg)
	}
	if !strings.Contains(out.String(), "stop reason: cancelled") {
		t.Fatalf("the turn did not end cancelled:\n%s", out.String())
	}
}

// TestCLIRunThatCouldNotSaveExitsNonZero: a turn that went well but whose session is not in the
// history exits with ExitNotSaved, so a script can tell.
func TestCLIRunThatCouldNotSaveExitsNonZero(t *testing.T) {
	t.Setenv("AGENTDESK_DEMO_PACE", "0s")
	db := filepath.Join(t.TempDir(), "not-a-db")
	if err := os.WriteFile(db, bytes.Repeat([]byte("not sqlite "), 100), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := runCLI([]string{"--db", db, "--permissions", "allow", "--cwd", t.TempDir(), "hello"}, strings.NewReader(""), &out, &errOut)
	if code != ExitNotSaved {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, ExitNotSaved, errOut.String())
	}
	if !strings.Contains(errOut.String(), "will not be saved") || !strings.HasSuffix(out.String(), "stop reason: end_turn\n") {
		t.Fatalf("stdout:\n%s\nstderr:\n%s", out.String(), errOut.String())
	}
}
