// Package agents knows which ACP agents can be started and how: the built-in Demo agent (this
// binary in its demo-agent mode), presets for well-known agents (presets.go: each pinned at one
// version of its npm package, run from the copy installed of it, never through npx; the user's
// override of a preset changes its arguments, environment, folder, version or command) and the
// user's custom agents (agents.json, see ConfigFile; imported from Zed's settings by ParseZed),
// each marked available only when its command is found on the login shell's PATH. It keeps the agents' secrets
// (SecretStore: the OS keyring, else a 0600 file) and masks their values (Masker). It starts
// nothing itself, except a terminal window the user asked for (RunInTerminal).
//
// Catalog puts it together for the window and the command line: every agent that can be
// started, with its secrets in its environment. Its guarantee is the masking order: every
// secret value it reads or stores is taught to its Masker before the value is handed on, so
// nothing an agent was given can be shown or saved unmasked.
package agents

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/shell"
)

// DemoID is the id of the built-in Demo agent, always available and listed first.
const DemoID = "demo"

// Agent is how to start one agent.
type Agent struct {
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	Command   string   `json:"command"`
	Args      []string `json:"args"`
	Available bool     `json:"available"`
	Reason    string   `json:"reason,omitempty"` // why it is not available
	Custom    bool     `json:"custom,omitempty"` // defined by the user (agents.json)
	Folder    string   `json:"folder,omitempty"` // a custom agent's default project folder
	// Env is the agent's whole environment (the base environment List was given); nil means
	// this process's own.
	Env []string `json:"-"`
	// Version is the installed version of an agent from the ACP registry or of a preset's
	// pinned package, else "" (an agent started from its own command: its version is unknown
	// until it says it in initialize).
	Version string `json:"version,omitempty"`
	// Preset describes a preset's package and what the user made of it; nil for other agents.
	Preset *PresetState `json:"preset,omitempty"`
	// Line is the command line as typed of an agent given as one (CustomID, FromCommandLine),
	// variables unexpanded; the history keeps it so that continuing starts the same command.
	Line string `json:"-"`
}

// List returns the Demo agent, run as self (this binary's path) with demoArgs, then the presets
// (presets.go) resolved on env (the agents' base environment; nil: this process's own) as they
// are before anything is installed or overridden: a preset with an npm package is then "not
// installed", one without runs its own command when it is on env's PATH. The catalog resolves
// them again with what is installed and the user's overrides (Catalog.List).
func List(self string, demoArgs []string, env []string) []Agent {
	out := []Agent{{ID: DemoID, Name: "Demo agent (offline)", Command: self,
		Args: append([]string{"demo-agent"}, demoArgs...), Available: true, Env: env}}
	for _, p := range presets {
		out = append(out, p.Resolve(env, Override{}, PresetInstall{}))
	}
	return out
}

// LookPath finds an executable named file in the directories of path (a PATH value), as a
// shell would; a name with a slash is checked as is. exec.LookPath only reads this process's
// own PATH, and agents are resolved on the login shell's.
func LookPath(file, path string) (string, error) {
	if strings.Contains(file, "/") {
		if isExecutable(file) {
			return file, nil
		}
		return "", fmt.Errorf("%s is not an executable file", file)
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue // "." and relative entries would depend on where agentdesk was started
		}
		if p := filepath.Join(dir, file); isExecutable(p) {
			return p, nil
		}
	}
	return "", fmt.Errorf("%q not found on PATH", file)
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0
}

// Find returns the agent with id, or an error naming the ids there are.
func Find(list []Agent, id string) (Agent, error) {
	for _, a := range list {
		if a.ID == id {
			if !a.Available {
				return a, fmt.Errorf("agent %q is not available: %s", a.Name, a.Reason)
			}
			return a, nil
		}
	}
	known := make([]string, len(list))
	for i, a := range list {
		known[i] = a.ID
	}
	return Agent{}, &UnknownError{ID: id, Known: known}
}

// UnknownError is Find's answer for an id no agent has (test with errors.As): an agent id
// mistyped, or a saved session's agent since deleted.
type UnknownError struct {
	ID    string
	Known []string // the ids there are
}

func (e *UnknownError) Error() string {
	return fmt.Sprintf("no agent %q; known agents: %s", e.ID, strings.Join(e.Known, " "))
}

// Self is this binary's path, for starting the Demo agent.
func Self() string {
	if p, err := os.Executable(); err == nil {
		return p
	}
	return os.Args[0]
}

// CustomID is the id of an agent given on the command line with --agent-cmd.
const CustomID = "custom"

// CommandLineID is the id of the nth (from 0) of several agents given as command lines (compare
// takes several --agent-cmd): CustomID, then custom-2, custom-3 and so on.
func CommandLineID(n int) string {
	if n == 0 {
		return CustomID
	}
	return CustomID + "-" + strconv.Itoa(n+1)
}

// IsCommandLineID reports whether id names an agent given as a command line (CommandLineID):
// its sessions keep the line to start it again.
func IsCommandLineID(id string) bool {
	n, ok := strings.CutPrefix(id, CustomID+"-")
	if id == CustomID {
		return true
	}
	i, err := strconv.Atoi(n)
	return ok && err == nil && i >= 2
}

// FromCommandLine makes an agent from a command line such as `npx -y @acme/agent --acp`. It is
// split like a POSIX shell would (quotes, escapes, $VAR from the environment) by mvdan.cc/sh,
// the maintained Go shell parser, but nothing is executed by a shell: the agent is started directly.
func FromCommandLine(line string) (Agent, error) {
	words, err := shell.Fields(line, nil)
	if err != nil {
		return Agent{}, fmt.Errorf("agent command %q: %w", line, err)
	}
	if len(words) == 0 {
		return Agent{}, fmt.Errorf("agent command is empty: give the command that starts an ACP agent, e.g. \"gemini --acp\"")
	}
	a := Agent{ID: CustomID, Name: filepath.Base(words[0]), Command: words[0], Args: words[1:], Line: line}
	path, err := exec.LookPath(a.Command)
	if err != nil {
		return Agent{}, fmt.Errorf("agent command %q: %w", a.Command, err)
	}
	a.Command, a.Available = path, true
	return a, nil
}
