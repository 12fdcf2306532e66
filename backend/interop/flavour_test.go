package interop

import (
	"testing"

	"agentdesk/backend/agents"
)

// server is a scripted model server as the cases use it.
type server interface {
	Seen() []Seen
	Summary() string
	Close()
}

// flavour is what differs from one agent to another in the cases (cases_test.go): how it is
// started, which model API it talks, and how its model calls its tools.
type flavour struct {
	name string
	// agent is the agent started in permission mode mode against a server at url.
	agent func(t *testing.T, wire *Tripwire, url, mode string) agents.Agent
	// serve starts the agent's model API with script and says the URL the agent is given.
	serve func(Script) (server, string)
	// ask is the mode that asks before edits and commands; free the mode that asks nothing.
	ask, free string
	// priced: the agent reports what a turn cost (usage_update cost).
	priced bool
	// write is the model's call that writes content to the file path (absolute), and run the
	// one that runs command in the shell: in the mode that asks (asked) or in the free one.
	write func(path, content string, asked bool) Answer
	run   func(command string, asked bool) Answer
	// cacheless: the agent reports no cached tokens (Gemini CLI's quota counts input and
	// output only).
	cacheless bool
	// settle, when set, runs between closing a session and continuing it: what time would do
	// for a session continued later (Gemini CLI: its session file moved back a minute).
	settle func(t *testing.T, r *rig)
	// skip says, by test name, why the agent cannot run a case (what it does not offer).
	skip map[string]string
}
