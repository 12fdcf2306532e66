package agents

import (
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
)

// terminals are the terminal emulators RunInTerminal knows, in the order they are tried, with
// the flag after which each takes the command to run and its arguments.
var terminals = []struct{ name, flag string }{
	{"x-terminal-emulator", "-e"}, // Debian's alternative: the user's chosen terminal
	{"gnome-terminal", "--"},
	{"konsole", "-e"},
	{"xfce4-terminal", "-x"},
	{"xterm", "-e"},
}

// Terminal is a terminal emulator found on a PATH.
type Terminal struct {
	Path string
	flag string
}

// FindTerminal returns the first terminal emulator on path (a PATH value), or an error saying
// none was found.
func FindTerminal(path string) (Terminal, error) {
	for _, t := range terminals {
		if p, err := LookPath(t.name, path); err == nil {
			return Terminal{Path: p, flag: t.flag}, nil
		}
	}
	names := make([]string, len(terminals))
	for i, t := range terminals {
		names[i] = t.name
	}
	return Terminal{}, fmt.Errorf("no terminal emulator found on PATH (looked for %s)", strings.Join(names, ", "))
}

// Command is the terminal window running command with args in env, which stays open after the
// command ends until the user presses Enter, so its last words can be read. The caller starts
// it (and waits for it, to reap it).
func (t Terminal) Command(env []string, command string, args []string) *exec.Cmd {
	script := `"$@"; status=$?; echo; echo "[exit status $status: press Enter to close this window]"; read _`
	argv := append([]string{t.flag, "/bin/sh", "-c", script, "sh", command}, args...)
	cmd := exec.Command(t.Path, argv...)
	cmd.Env = env
	return cmd
}

// LoginCommand is how to run agent a's own program with a terminal login method's args
// (docs/acp.md): its command, and for an agent started through a launcher (npx and its kin, or
// an interpreter: `npx -y PACKAGE`, `python3 agent.py`) the package or script as well, since that
// is the agent's program there: `python3 agent.py login`, not `python3 login`.
func LoginCommand(a Agent, args []string) (string, []string, error) {
	if a.Command == "" {
		return "", nil, errors.New("the agent has no command")
	}
	if launcher(a.Command) {
		for i, arg := range a.Args {
			if !strings.HasPrefix(arg, "-") {
				return a.Command, append(append([]string{}, a.Args[:i+1]...), args...), nil
			}
		}
	}
	return a.Command, append([]string{}, args...), nil
}

// launcher reports whether command runs another program named by its first argument that is
// not a flag: a package runner or an interpreter (python3.12 too).
func launcher(command string) bool {
	base := filepath.Base(command)
	switch strings.TrimRight(base, "0123456789.") {
	case "npx", "pnpx", "bunx", "uvx", "node", "python", "ruby", "perl", "sh", "bash":
		return true
	}
	return false
}
