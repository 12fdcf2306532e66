//go:build unix

package compare

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func TestRunCheckSaysHowTheCommandEnded(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "here.txt"), []byte("x"), 0o644)
	for _, tc := range []struct {
		command string
		code    int
		out     string
	}{
		{"test -f here.txt && echo found", 0, "found\n"},
		{"echo to stderr >&2; exit 3", 3, "to stderr\n"},
		{"cat; echo after", 0, "after\n"},                                                // stdin is /dev/null: nothing waits on a person
		{"printf '\\033[31mred\\033[0m \\033]8;;http://x\\007link\\n'", 0, "red link\n"}, // no control sequences
	} {
		c := RunCheck(context.Background(), dir, tc.command, os.Environ())
		if c.ExitCode != tc.code || c.Output != tc.out || c.Error != "" || c.Command != tc.command {
			t.Errorf("RunCheck(%q) = %+v; want exit %d and %q", tc.command, c, tc.code, tc.out)
		}
	}
}

func TestRunCheckKeepsTheEndOfALongOutput(t *testing.T) {
	c := RunCheck(context.Background(), t.TempDir(), "yes ééééééé | head -c 300000; echo; echo THE END", os.Environ())
	if c.ExitCode != 0 || len(c.Output) > MaxCheckOutput+8 || !strings.HasPrefix(c.Output, "…") || !strings.HasSuffix(c.Output, "THE END\n") ||
		strings.ContainsRune(c.Output, '\uFFFD') {
		t.Fatalf("RunCheck of a long output: exit %d, %d bytes, starts %q, ends %q", c.ExitCode, len(c.Output), c.Output[:10], c.Output[len(c.Output)-10:])
	}
}

func TestRunCheckStoppedKillsWhatItStarted(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pid"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		c := RunCheck(ctx, dir, "sleep 1000 & echo $! > pid; wait", os.Environ())
		if c.ExitCode != -1 || !strings.Contains(c.Error, "stopped") {
			t.Errorf("a stopped check = %+v; want exit -1, saying it was stopped", c)
		}
	}()
	b, err := os.ReadFile(filepath.Join(dir, "pid")) // blocks until the check has started its child
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	cancel()
	<-done
	if pid <= 0 || alive(pid) {
		t.Fatalf("the check's child %d outlived it", pid)
	}
}

// alive says whether process pid runs: a zombie (killed, not yet reaped by its new parent) does not.
func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	_, after, _ := strings.Cut(string(stat), ") ")
	return !strings.HasPrefix(after, "Z") && !strings.HasPrefix(after, "X")
}

func TestRunCheckThatCannotStartSaysWhy(t *testing.T) {
	c := RunCheck(context.Background(), filepath.Join(t.TempDir(), "gone"), "true", os.Environ())
	if c.ExitCode != -1 || !strings.Contains(c.Error, "did not start") {
		t.Fatalf("RunCheck in a missing folder = %+v", c)
	}
}
