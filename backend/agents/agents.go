// Package agents knows which ACP agents can be started and how: the built-in Demo agent (this
// binary in its demo-agent mode) and presets for well-known agents, each marked available only
// when its command is found. It starts nothing itself.
package agents

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

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
}

// presets are the usual launch commands of well-known ACP agents (acp-client.md §7.3).
var presets = []Agent{
	{ID: "claude", Name: "Claude Code", Command: "claude-agent-acp"},
	{ID: "codex", Name: "Codex", Command: "codex-acp"},
	{ID: "gemini", Name: "Gemini CLI", Command: "gemini", Args: []string{"--acp"}},
	{ID: "opencode", Name: "opencode", Command: "opencode", Args: []string{"acp"}},
	{ID: "goose", Name: "Goose", Command: "goose", Args: []string{"acp"}},
}

// List returns the Demo agent, run as self (this binary's path) with demoArgs, then the presets
// with their commands resolved on PATH.
func List(self string, demoArgs []string) []Agent {
	out := []Agent{{ID: DemoID, Name: "Demo agent (offline)", Command: self,
		Args: append([]string{"demo-agent"}, demoArgs...), Available: true}}
	for _, p := range presets {
		a := p
		if path, err := exec.LookPath(a.Command); err == nil {
			a.Command, a.Available = path, true
		} else {
			a.Reason = fmt.Sprintf("command %q not found on PATH", a.Command)
		}
		out = append(out, a)
	}
	return out
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
	ids := ""
	for _, a := range list {
		ids += " " + a.ID
	}
	return Agent{}, fmt.Errorf("no agent %q; known agents:%s", id, ids)
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
	a := Agent{ID: CustomID, Name: filepath.Base(words[0]), Command: words[0], Args: words[1:]}
	path, err := exec.LookPath(a.Command)
	if err != nil {
		return Agent{}, fmt.Errorf("agent command %q: %w", a.Command, err)
	}
	a.Command, a.Available = path, true
	return a, nil
}
