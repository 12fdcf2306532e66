package agents

import (
	"strings"
	"testing"
)

// TestLoginCommandRunsTheAgentsOwnProgram (issue 31): a terminal login runs the agent's own
// program with the method's args: the binary itself, or, behind a package runner or an
// interpreter, the package or script it names (`python3 agent.py login`, never `python3 login`).
func TestLoginCommandRunsTheAgentsOwnProgram(t *testing.T) {
	for _, c := range []struct {
		command string
		args    []string
		want    string
	}{
		{"/usr/bin/gemini", []string{"--acp"}, "/usr/bin/gemini login"},
		{"/usr/bin/npx", []string{"-y", "@acme/agent@1.2.0", "--acp"}, "/usr/bin/npx -y @acme/agent@1.2.0 login"},
		{"/usr/bin/python3", []string{"agent.py", "--acp"}, "/usr/bin/python3 agent.py login"},
		{"/usr/local/bin/python3.12", []string{"-u", "/opt/agent.py"}, "/usr/local/bin/python3.12 -u /opt/agent.py login"},
		{"/usr/bin/node", []string{"--no-warnings", "dist/agent.js"}, "/usr/bin/node --no-warnings dist/agent.js login"},
		{"/usr/bin/uvx", []string{"acme-agent"}, "/usr/bin/uvx acme-agent login"},
		{"/usr/bin/python3", nil, "/usr/bin/python3 login"}, // nothing names a script: the interpreter is the program
	} {
		cmd, args, err := LoginCommand(Agent{Command: c.command, Args: c.args}, []string{"login"})
		if got := strings.Join(append([]string{cmd}, args...), " "); err != nil || got != c.want {
			t.Errorf("%s %v: %q, %v; want %q", c.command, c.args, got, err, c.want)
		}
	}
	if _, _, err := LoginCommand(Agent{}, []string{"login"}); err == nil {
		t.Error("an agent without a command has no login command")
	}
}
