// Package agents knows which ACP agents can be started and how: the built-in Demo agent (this
// binary in its demo-agent mode), presets for well-known agents and the user's custom agents
// (agents.json, see ConfigFile; imported from Zed's settings by ParseZed), each marked available
// only when its command is found on the login shell's PATH. It keeps the agents' secrets
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
	// Version is the installed version of an agent from the ACP registry, else "".
	Version string `json:"version,omitempty"`
	// Line is the command line as typed of an agent given as one (CustomID, FromCommandLine),
	// variables unexpanded; the history keeps it so that continuing starts the same command.
	Line string `json:"-"`
}

// preset is a well-known agent: its own command, and the npx package that runs it when that
// command is not installed (docs/acp.md).
type preset struct {
	id, name string
	command  string
	args     []string
	npx      string   // package@version run with npx -y when command is missing ("" if none)
	npxArgs  []string // the agent's arguments after the package
}

// presets are the usual launch commands of well-known ACP agents. npx always gets -y: without
// it, npx asks "Ok to proceed?" on stdin, which is the protocol pipe.
var presets = []preset{
	{id: "claude", name: "Claude Code", command: "claude-agent-acp", npx: "@agentclientprotocol/claude-agent-acp@latest"},
	{id: "codex", name: "Codex", command: "codex-acp", npx: "@agentclientprotocol/codex-acp@latest"},
	{id: "gemini", name: "Gemini CLI", command: "gemini", args: []string{"--acp"},
		npx: "@google/gemini-cli@latest", npxArgs: []string{"--acp"}},
	{id: "opencode", name: "opencode", command: "opencode", args: []string{"acp"},
		npx: "opencode-ai@latest", npxArgs: []string{"acp"}},
	{id: "qwen", name: "Qwen Code", command: "qwen", args: []string{"--acp", "--experimental-skills"},
		npx: "@qwen-code/qwen-code@latest", npxArgs: []string{"--acp", "--experimental-skills"}},
	{id: "copilot", name: "GitHub Copilot", command: "copilot", args: []string{"--acp", "--stdio"},
		npx: "@github/copilot-language-server@latest", npxArgs: []string{"--acp"}},
	{id: "goose", name: "Goose", command: "goose", args: []string{"acp"}},
	{id: "kiro", name: "Kiro", command: "kiro-cli", args: []string{"acp"}},
}

// List returns the Demo agent, run as self (this binary's path) with demoArgs, then the presets,
// each resolved on the PATH of env (the agents' base environment; nil: this process's own): its
// own command when installed, else through npx when Node.js is, else unavailable with the reason.
func List(self string, demoArgs []string, env []string) []Agent {
	out := []Agent{{ID: DemoID, Name: "Demo agent (offline)", Command: self,
		Args: append([]string{"demo-agent"}, demoArgs...), Available: true, Env: env}}
	path := os.Getenv("PATH")
	if env != nil {
		path = Getenv(env, "PATH")
	}
	npx, npxErr := LookPath("npx", path)
	for _, p := range presets {
		a := Agent{ID: p.id, Name: p.name, Command: p.command, Args: p.args, Env: env}
		switch cmd, err := LookPath(p.command, path); {
		case err == nil:
			a.Command, a.Available = cmd, true
		case p.npx != "" && npxErr == nil:
			a.Command, a.Args, a.Available = npx, append([]string{"-y", p.npx}, p.npxArgs...), true
		case p.npx != "":
			a.Reason = fmt.Sprintf("needs Node.js: neither %q nor npx is on PATH", p.command)
		default:
			a.Reason = fmt.Sprintf("command %q not found on PATH", p.command)
		}
		out = append(out, a)
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
