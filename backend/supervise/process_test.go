package supervise_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/supervise"
)

// The portable part of the package (process.go, ring.go): what every OS gets.

// TestStartRefusesAFolderThatIsNotOne: a working folder that is missing, or a file, is refused
// before anything starts, in words that name the command and the folder.
func TestStartRefusesAFolderThatIsNotOne(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{filepath.Join(t.TempDir(), "missing"), file} {
		_, err := supervise.Start(supervise.Command{Path: "sh", Dir: dir})
		if err == nil || !strings.Contains(err.Error(), `"sh"`) || !strings.Contains(err.Error(), dir) {
			t.Fatalf("Start in %s: err = %v, want one that names the command and the folder", dir, err)
		}
	}
}

// TestCommandWords: a command and a list of pids read as a person writes them.
func TestCommandWords(t *testing.T) {
	if got := (supervise.Command{Path: "npx", Args: []string{"-y", "agent"}}).String(); got != "npx -y agent" {
		t.Fatalf("String() = %q", got)
	}
	if got := supervise.PidList([]int{12, 34}); got != "pid 12, 34" {
		t.Fatalf("PidList = %q", got)
	}
	if got := supervise.PidList([]int{7}); got != "pid 7" {
		t.Fatalf("PidList = %q", got)
	}
}

// TestErrUnsupportedSaysWhatIsMissing: the error of an OS without supervision says so and what
// does work, for a person who reads it in the window.
func TestErrUnsupportedSaysWhatIsMissing(t *testing.T) {
	msg := supervise.ErrUnsupported.Error()
	if !strings.Contains(msg, "not supported on this OS yet") || !strings.Contains(msg, "Linux") {
		t.Fatalf("ErrUnsupported = %q", msg)
	}
	if errors.Unwrap(supervise.ErrUnsupported) != nil {
		t.Fatal("ErrUnsupported wraps something: callers match it with errors.Is")
	}
}
