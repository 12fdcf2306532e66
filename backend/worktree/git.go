package worktree

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// Git runs the git CLI. Run runs git with args in dir, with env added to the environment
// (nil for none; GIT_INDEX_FILE for a private index), and returns its standard output; when git
// fails, the error carries git's own words (the last lines of its standard error). It blocks
// until git exits or ctx ends (git is then killed).
type Git interface {
	Run(ctx context.Context, dir string, env []string, args ...string) ([]byte, error)
}

// CLI is the system's git, found on PATH. Every call runs with the repository's hooks and
// file-system monitor off, never prompts (GIT_TERMINAL_PROMPT=0) and speaks in the C locale, so
// that its output parses and its errors read the same everywhere.
type CLI struct{}

var _ Git = CLI{}

// safety is put before every git command: agentdesk's own operations run nothing the
// repository configures to run.
var safety = []string{"-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false"}

// Run implements Git.
func (CLI) Run(ctx context.Context, dir string, env []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append(append([]string{}, safety...), args...)...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C", "GIT_OPTIONAL_LOCKS=0"), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return stdout.Bytes(), &GitError{Args: args, Words: lastLines(stderr.String(), 3), Code: exit.ExitCode()}
		}
		return nil, fmt.Errorf("run git: %w", err)
	}
	return stdout.Bytes(), nil
}

// GitError is git exiting with an error: the command (without the safety options), its exit
// code and the last lines it wrote on standard error.
type GitError struct {
	Args  []string
	Code  int
	Words string
}

func (e *GitError) Error() string {
	if e.Words == "" {
		return fmt.Sprintf("git %s: exit status %d", strings.Join(e.Args, " "), e.Code)
	}
	return fmt.Sprintf("git %s: %s", strings.Join(e.Args, " "), e.Words)
}

// lastLines returns the last n non-empty lines of s, joined by "; ".
func lastLines(s string, n int) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "; ")
}
