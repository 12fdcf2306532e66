// Package gittest runs the system's git for tests that set up and check real repositories
// (test-only: nothing else imports it). It guarantees the same commits whatever the machine's
// git configuration: a fixed author and committer, no global config, the C locale.
package gittest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Run runs git with args in dir and returns what it printed (stdout and stderr); a failure
// fails the test, naming the command and git's words.
func Run(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "LC_ALL=C")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}
