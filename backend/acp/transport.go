package acp

import (
	"io"
	"time"

	"agentdesk/backend/supervise"
)

// Transport is a running agent as the Session sees it: its stdout to read, its stdin to write,
// and a way to stop it. *Process is the real one; tests use in-process pipes (acptest).
type Transport interface {
	io.Reader // the agent's stdout
	io.Writer // the agent's stdin
	// Exited is closed when the agent has exited; ExitStatus then describes how.
	Exited() <-chan struct{}
	// ExitStatus is "" while the agent runs, then e.g. "exit status 1" or "signal: killed".
	ExitStatus() string
	// StderrTail is the last lines of the agent's stderr, ANSI escapes stripped.
	StderrTail() string
	// Close stops the agent: close stdin, wait up to grace, SIGTERM its process group, wait up to
	// grace, SIGKILL every process it started. It returns when the agent has ended, everything it
	// started has been killed (or reported in the error) and its output is closed, even when a
	// process that could not be killed holds it. Safe to call twice.
	Close(grace time.Duration) error
}

// EnvTransport is a Transport that knows the environment it started the agent with: the
// session gives it to the agent's terminals when Config.Env is nil (see Session.terminalEnv).
type EnvTransport interface {
	Transport
	Env() []string
}

var (
	_ Transport    = (*supervise.Process)(nil)
	_ EnvTransport = (*supervise.Process)(nil)
)
