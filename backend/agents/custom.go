package agents

import (
	"fmt"
	"os"
	"strings"

	"mvdan.cc/sh/v3/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Resolve makes c startable like a preset: its command is looked up on the PATH of its own
// environment (base with c's plain variables set over it, so a PATH of its own counts), and the
// Agent is unavailable, with the reason, when it is not found. The Agent's Env is that
// environment without c's secrets, which the caller adds at launch (WithEnv). base nil means
// this process's environment.
func (c Custom) Resolve(base []string) Agent {
	if base == nil {
		base = os.Environ()
	}
	env := WithEnv(base, plainVars(c.Env))
	a := Agent{ID: c.ID, Name: c.Name, Command: expandHome(c.Command), Args: c.Args, Custom: true,
		Folder: c.Folder, Env: env}
	if cmd, err := LookPath(a.Command, Getenv(env, "PATH")); err == nil {
		a.Command, a.Available = cmd, true
	} else {
		a.Reason = fmt.Sprintf("command %q not found on PATH", c.Command)
		if strings.Contains(c.Command, "/") {
			a.Reason = fmt.Sprintf("%s is not an executable file", a.Command)
		}
	}
	return a
}

// WithEnv returns env with each NAME=VALUE of vars set, replacing any earlier value of NAME.
// env is not modified.
func WithEnv(env []string, vars []string) []string {
	if len(vars) == 0 {
		return env
	}
	set := map[string]bool{}
	for _, kv := range vars {
		name, _, _ := strings.Cut(kv, "=")
		set[name] = true
	}
	out := make([]string, 0, len(env)+len(vars))
	for _, kv := range env {
		if name, _, _ := strings.Cut(kv, "="); !set[name] {
			out = append(out, kv)
		}
	}
	return append(out, vars...)
}

// SplitArgs splits an argument line as a POSIX shell would (quotes and escapes), without
// expanding anything: "$HOME" stays "$HOME", since the agent is started without a shell.
func SplitArgs(line string) ([]string, error) {
	words, err := shell.Fields(line, func(name string) string {
		if name == "IFS" { // how unquoted words split: the shell's default
			return " \t\n"
		}
		return "$" + name
	})
	if err != nil {
		return nil, fmt.Errorf("arguments %q: %w", line, err)
	}
	return words, nil
}

// JoinArgs is the inverse of SplitArgs: each argument quoted only when it must be.
func JoinArgs(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		q, err := syntax.Quote(a, syntax.LangPOSIX)
		if err != nil { // a NUL byte: cannot be an argument anyway
			q = "'" + a + "'"
		}
		out[i] = q
	}
	return strings.Join(out, " ")
}

// CommandLine is the exact line a user types in a terminal to run command with args and the
// variables env (NAME=VALUE words first, as a shell reads them).
func CommandLine(env []string, command string, args []string) string {
	var words []string
	for _, kv := range env {
		name, val, _ := strings.Cut(kv, "=")
		words = append(words, name+"="+JoinArgs([]string{val}))
	}
	words = append(words, JoinArgs(append([]string{command}, args...)))
	return strings.Join(words, " ")
}
