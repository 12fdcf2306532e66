package agents

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"agentdesk/backend/supervise"
)

// LoginEnvTimeout bounds the capture: a login shell whose rc files wait for input or the
// network must not keep the app from starting agents.
const LoginEnvTimeout = 5 * time.Second

// CaptureLoginEnv returns the environment a login shell of the user ends up with (its PATH
// above all: an app started from the desktop menu has a bare one, without nvm's node or
// ~/.local/bin). It runs shell once, as `shell -l -i -c SCRIPT` (for bash, zsh, fish and ksh;
// `-l -c` for other POSIX shells) with no input, and reads the environment `env -0` prints
// between two random markers, so whatever rc files print around it is dropped and never
// reaches an agent. The shell runs in its own process group, killed when ctx ends or after
// LoginEnvTimeout. Errors say what went wrong; callers then fall back to their own environment.
func CaptureLoginEnv(ctx context.Context, shell string) ([]string, error) {
	if shell == "" {
		return nil, errors.New("capture login environment: SHELL is not set")
	}
	args, ok := shellArgs(shell)
	if !ok {
		return nil, fmt.Errorf("capture login environment: %s is not a shell agentdesk can ask (bash, zsh, fish, ksh, sh and dash are)", shell)
	}
	var buf [12]byte
	_, _ = rand.Read(buf[:])
	marker := "__agentdesk_env_" + hex.EncodeToString(buf[:]) + "__"
	script := fmt.Sprintf("printf '%%s' '%s'; command env -0; printf '%%s' '%s'", marker, marker)

	ctx, cancel := context.WithTimeout(ctx, LoginEnvTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, shell, append(args, script)...)
	cmd.Stdin = nil // /dev/null: a prompt in an rc file reads EOF instead of waiting
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	// A session of its own: its own process group to kill, and no controlling terminal, which an
	// interactive shell would otherwise try to take over from agentdesk's and be stopped for.
	if err := supervise.OwnSession(cmd); err != nil {
		return nil, fmt.Errorf("capture login environment: %w", err)
	}
	// On timeout: SIGTERM first, so that startup scripts can clean up (pyenv's rehash leaves a
	// lock behind that makes every later shell wait 60 s), then SIGKILL a second later.
	var hard *time.Timer
	cmd.Cancel = func() error {
		pgid := cmd.Process.Pid
		hard = time.AfterFunc(time.Second, func() { _ = supervise.KillGroup(pgid) })
		return supervise.TermGroup(pgid)
	}
	cmd.WaitDelay = 2 * time.Second // a grandchild holding stdout open must not keep Wait waiting
	runErr := cmd.Run()
	if hard != nil && hard.Stop() {
		// The shell ended on SIGTERM before its SIGKILL: what it started goes now.
		_ = supervise.KillGroup(cmd.Process.Pid)
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("capture login environment: %s -l did not finish in time (check your shell's startup files for a command that waits)", shell)
	}
	env, err := parseMarked(out.Bytes(), marker)
	if err != nil {
		if runErr != nil {
			err = fmt.Errorf("%w (%v: %s)", err, runErr, strings.TrimSpace(lastLine(errOut.String())))
		}
		return nil, fmt.Errorf("capture login environment with %s: %w", shell, err)
	}
	return env, nil
}

// shellArgs are the flags before -c's script for shell; false for shells whose flags differ
// (csh, tcsh, nushell...).
func shellArgs(shell string) ([]string, bool) {
	switch filepath.Base(shell) {
	case "bash", "zsh", "fish", "ksh", "mksh":
		// Interactive too: many users extend PATH in .bashrc / .zshrc only.
		return []string{"-l", "-i", "-c"}, true
	case "sh", "dash":
		return []string{"-l", "-c"}, true
	}
	return nil, false
}

// parseMarked reads the NUL-separated environment between the two markers in out.
func parseMarked(out []byte, marker string) ([]string, error) {
	m := []byte(marker)
	start := bytes.Index(out, m)
	if start < 0 {
		return nil, errors.New("the shell printed no environment")
	}
	rest := out[start+len(m):]
	end := bytes.Index(rest, m)
	if end < 0 {
		return nil, errors.New("the shell's environment was cut short")
	}
	var env []string
	for _, kv := range bytes.Split(rest[:end], []byte{0}) {
		if i := bytes.IndexByte(kv, '='); i > 0 {
			env = append(env, string(kv))
		}
	}
	if len(env) == 0 {
		return nil, errors.New("the shell printed an empty environment")
	}
	return env, nil
}

// AgentEnv is the base environment for agents: the captured login environment when there is
// one, with what only this process knows kept (a display, the session bus), else os.Environ().
// The variables a login shell sets for itself (SHLVL, PWD, OLDPWD, _) are dropped.
func AgentEnv(login []string) []string {
	if len(login) == 0 {
		return os.Environ()
	}
	seen := map[string]bool{}
	var out []string
	for _, kv := range login {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "SHLVL", "PWD", "OLDPWD", "_":
			continue
		}
		seen[name] = true
		out = append(out, kv)
	}
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); !seen[name] {
			out = append(out, kv)
		}
	}
	return out
}

// Getenv returns name's value in env (the last one wins, as for exec).
func Getenv(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == name {
			v = val
		}
	}
	return v
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}
