package terminal

import "agentdesk/backend/acp/schema"

// View is what a tool card shows of one of the client's terminals: the tail of its
// output (at most DisplayBytes, with its colour sequences and no other escape; see
// escFilter), whether the start was cut, once the command has ended, how, and whether the person
// may type into it (one of ours, running).
type View struct {
	Output     string
	Truncated  bool
	ExitStatus *schema.TerminalExitStatus
	Input      bool
}
