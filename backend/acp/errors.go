package acp

import (
	"errors"
	"fmt"
)

// The engine's errors. Each refusal is a sentinel (errors.Is) or a typed error (errors.As), so
// the window and the command line can word it for their own user; a failure of the agent or the
// connection wraps its cause (jsonrpc.ErrConnClosed, a *jsonrpc.Error) with context once.
//
// Until the edge words them itself (issue 14), each keeps the text a person reads today; where
// that text differs from its sentinel's, the error is a *wordedError around the sentinel.
var (
	// ErrBusy: Prompt on a session whose turn is still running (or being cancelled).
	ErrBusy = errors.New("the agent is busy with a turn; wait for it to end or press Stop")

	// ErrClosed: Prompt, Continue and the like once Close has been called.
	ErrClosed = errors.New("the session is closed")

	// ErrEnded: Prompt on a session whose agent has exited or whose start failed (see
	// *StateError for which); an exited one can be continued (Continue).
	ErrEnded = errors.New("the session has ended")

	// ErrNotExited: Continue on a session whose agent has not exited (see *StateError).
	ErrNotExited = errors.New("the agent has not exited")

	// ErrNotRunning: HardStop on a session that has no agent process (before Start).
	ErrNotRunning = errors.New("the agent is not running")

	// ErrNotStarted: a control (mode, model, setting) changed before the session opened.
	ErrNotStarted = errors.New("the session has not started")

	// ErrNotOffered: the agent offers no such thing: no modes or models at all, no mode, model,
	// setting or auth method of that id, no session/list.
	ErrNotOffered = errors.New("the agent does not offer it")

	// ErrTerminalLogin: Config.AuthMethod names a terminal login, which the user carries out in
	// a terminal (the method's Args), never agentdesk through authenticate.
	ErrTerminalLogin = errors.New("the auth method is a terminal login")

	// ErrPermissionNotOpen: Decide on a request that is not open (answered, cancelled, unknown).
	ErrPermissionNotOpen = errors.New("the permission request is not open")

	// ErrNoSuchOption: Decide with an option the request did not offer.
	ErrNoSuchOption = errors.New("the permission request has no such option")
)

// StateError is an operation the session refuses in its current state: Err is ErrEnded (Prompt
// after the agent exited or failed to start) or ErrNotExited (Continue while the agent runs).
type StateError struct {
	State State // the session's state when it refused
	Err   error
}

var _ error = (*StateError)(nil)

// Error words the refusal as the window and the CLI show it today.
func (e *StateError) Error() string {
	if e.Err == ErrNotExited {
		return fmt.Sprintf("only a session whose agent has exited can be continued (this one is %s)", e.State)
	}
	return fmt.Sprintf("the session has %s: start a new session", e.State)
}

// Unwrap returns the sentinel.
func (e *StateError) Unwrap() error { return e.Err }

// VersionError is a start that failed because the agent speaks another major version of ACP
// than ProtocolVersion.
type VersionError struct {
	Agent   string // the agent's name (Config.AgentName)
	Version int    // the version the agent answered
}

var _ error = (*VersionError)(nil)

// Error words the mismatch as the window and the CLI show it today.
func (e *VersionError) Error() string {
	return fmt.Sprintf("%s speaks ACP version %d; agentdesk speaks version %d: update the agent or agentdesk",
		e.Agent, e.Version, ProtocolVersion)
}

// GoneError is a call that failed because the agent's connection ended. It says how the agent
// ended and what it last wrote on stderr; Err is the call's own error, which wraps
// jsonrpc.ErrConnClosed and the cause of the end (jsonrpc.ErrPeerClosed, a read error).
type GoneError struct {
	How    string // how the agent ended: "the agent exited (exit status 1)", ...
	Stderr string // the last lines of its stderr; "" when it wrote none
	Err    error
}

var _ error = (*GoneError)(nil)

// Error is How, then the stderr lines.
func (e *GoneError) Error() string {
	if e.Stderr == "" {
		return e.How
	}
	return e.How + "; its last output on stderr:\n" + e.Stderr
}

// Unwrap returns the call's error.
func (e *GoneError) Unwrap() error { return e.Err }

// wordedError is a sentinel with the words a person reads today (Error); errors.Is finds the
// sentinel. Once the window and the CLI word the sentinels themselves, it goes.
type wordedError struct {
	err  error
	text string
}

var _ error = (*wordedError)(nil)

// worded returns err worded with format and args for a person.
func worded(err error, format string, args ...any) error {
	return &wordedError{err: err, text: fmt.Sprintf(format, args...)}
}

func (e *wordedError) Error() string { return e.text }
func (e *wordedError) Unwrap() error { return e.err }
