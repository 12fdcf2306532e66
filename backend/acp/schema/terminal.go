package schema

// terminal/* methods served to agents (advertised in initialize as terminal: true).
const (
	MethodTerminalCreate      = "terminal/create"
	MethodTerminalOutput      = "terminal/output"
	MethodTerminalWaitForExit = "terminal/wait_for_exit"
	MethodTerminalKill        = "terminal/kill"
	MethodTerminalRelease     = "terminal/release"
)

// EnvVariable is one environment variable set by terminal/create.
type EnvVariable struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// CreateTerminalParams is terminal/create. Cwd must be absolute; OutputByteLimit caps the output
// kept (see MaxTerminalOutput).
type CreateTerminalParams struct {
	SessionID       string        `json:"sessionId"`
	Command         string        `json:"command"`
	Args            []string      `json:"args,omitempty"`
	Env             []EnvVariable `json:"env,omitempty"`
	Cwd             string        `json:"cwd,omitempty"`
	OutputByteLimit *int64        `json:"outputByteLimit,omitempty"`
}

// CreateTerminalResult answers terminal/create.
type CreateTerminalResult struct {
	TerminalID string `json:"terminalId"`
}

// TerminalParams names a terminal: the params of terminal/output, wait_for_exit, kill and release.
type TerminalParams struct {
	SessionID  string `json:"sessionId"`
	TerminalID string `json:"terminalId"`
}

// TerminalExitStatus is how a terminal's command ended: its exit code, or the name of the signal
// that ended it ("SIGKILL"); the other one is null. It also answers terminal/wait_for_exit.
type TerminalExitStatus struct {
	ExitCode *int    `json:"exitCode"`
	Signal   *string `json:"signal"`
}

// TerminalOutputResult answers terminal/output. ExitStatus is absent while the command runs.
type TerminalOutputResult struct {
	Output     string              `json:"output"`
	Truncated  bool                `json:"truncated"`
	ExitStatus *TerminalExitStatus `json:"exitStatus,omitempty"`
}
