package terminal

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"agentdesk/backend/acp/fsys"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/supervise"
)

// command is what runs for p: the command line through a shell, in the session folder or the
// folder of it p names (see workDir), with p's variables over the agent's environment and the
// terminal's own (see terminalVars).
func (ts *Set) command(p schema.CreateTerminalParams) (supervise.Command, error) {
	if strings.TrimSpace(p.Command) == "" {
		return supervise.Command{}, &jsonrpc.Error{Code: schema.CodeInvalidParams, Message: "terminal/create needs a command"}
	}
	dir, err := ts.workDir(p.Cwd)
	if err != nil {
		return supervise.Command{}, err
	}
	return supervise.Command{Path: shell(), Args: []string{"-c", commandLine(p)}, Env: mergeEnv(mergeEnv(ts.env, terminalVars), p.Env), Dir: dir}, nil
}

// terminalVars describe the terminal a command runs on, over the agent's environment (whose TERM,
// if any, describes agentdesk's own terminal, not this one); the agent's terminal/create may set
// any of them. The pagers are cat: git diff or man on a terminal would otherwise wait in less for
// a key that no agent sends. NO_COLOR in the agent's environment reaches the command as it is.
var terminalVars = []schema.EnvVariable{
	{Name: "TERM", Value: "xterm-256color"},
	{Name: "PAGER", Value: "cat"},
	{Name: "GIT_PAGER", Value: "cat"},
}

// commandLine is the shell command line of p: its command, then its arguments shell-quoted.
func commandLine(p schema.CreateTerminalParams) string {
	line := p.Command
	for _, a := range p.Args {
		line += " " + ShellQuote(a)
	}
	return line
}

// workDir is the folder a command runs in: the session folder when cwd is empty, else cwd
// (relative: to the session folder), which must be an existing folder inside the session
// folder, links resolved. This keeps an agent's commands where the user put it; it is no sandbox:
// the command itself may go anywhere.
func (ts *Set) workDir(cwd string) (string, error) {
	if cwd == "" {
		return ts.dir, nil
	}
	dir := cwd
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(ts.dir, dir)
	}
	real, err := filepath.EvalSymlinks(dir)
	if st, serr := os.Stat(real); err != nil || serr != nil || !st.IsDir() {
		return "", &jsonrpc.Error{Code: schema.CodeInvalidParams, Message: fmt.Sprintf("cwd %q is not an existing folder", cwd)}
	}
	for _, root := range append([]string{ts.root}, ts.extra...) {
		if _, ok := fsys.Under(root, real); ok {
			return real, nil
		}
	}
	if len(ts.extra) > 0 {
		return "", &jsonrpc.Error{Code: schema.CodeInvalidParams, Message: fmt.Sprintf(
			"cwd %q is outside the session's folders (%s): agentdesk runs terminals only inside them", cwd, strings.Join(append([]string{ts.root}, ts.extra...), ", "))}
	}
	return "", &jsonrpc.Error{Code: schema.CodeInvalidParams,
		Message: fmt.Sprintf("cwd %q is outside the session folder %q: agentdesk runs terminals only inside it", cwd, ts.root)}
}

// shell is bash when there is one (agents write bash), else the POSIX shell.
func shell() string {
	if path, err := exec.LookPath("bash"); err == nil {
		return path
	}
	return "/bin/sh"
}

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

// ShellQuote makes s one word for a POSIX shell.
func ShellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// mergeEnv sets vars over base (NAME=value entries), replacing variables of the same name.
func mergeEnv(base []string, vars []schema.EnvVariable) []string {
	out := make([]string, 0, len(base)+len(vars))
	set := map[string]bool{}
	for _, v := range vars {
		set[v.Name] = true
	}
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if !set[name] {
			out = append(out, kv)
		}
	}
	for _, v := range vars {
		out = append(out, v.Name+"="+v.Value)
	}
	return out
}
