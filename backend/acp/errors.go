package acp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"agentdesk/backend/acp/schema"
)

// The engine's errors. Each refusal is a sentinel (errors.Is) or a typed error (errors.As) whose
// text states what happened and nothing more: what a person should do about it is chosen at the
// edge, by the window (the root's app_errors.go) and the command line (backend/cli/words.go),
// each for its own user. A failure of the agent or the connection wraps its cause
// (jsonrpc.ErrConnClosed, a *jsonrpc.Error) with context once.
//
// The exceptions are texts carried by events (a failed start's message, a turn's error): both
// users read those as the engine wrote them, so they may say what to do where that is the same
// for both (VersionError).
var (
	// ErrBusy: Prompt on a session that is still starting (during a turn a prompt is queued:
	// session_queue.go).
	ErrBusy = errors.New("the agent is still starting")

	// ErrClosed: Prompt, Continue and the like once Close has been called.
	ErrClosed = errors.New("the session is closed")

	// ErrEnded: Prompt on a session whose agent has exited or whose start failed (see
	// *StateError for which); an exited one can be continued (Continue).
	ErrEnded = errors.New("the session has ended")

	// ErrNotExited: Continue on a session whose agent has not exited (see *StateError).
	ErrNotExited = errors.New("the agent has not exited")

	// ErrNotSeeded: Reopen on a session that has no Config.Seed or has already been opened.
	ErrNotSeeded = errors.New("the session is not a saved one waiting to be reopened")

	// ErrStartCancelled: Start, Continue or Reopen whose context was cancelled before the
	// session opened (the person cancelled the start).
	ErrStartCancelled = errors.New("the start was cancelled")

	// ErrNotRunning: HardStop on a session that has no agent process (before Start).
	ErrNotRunning = errors.New("the agent is not running")

	// ErrNotStarted: a control (mode, model, setting) changed before the session opened.
	ErrNotStarted = errors.New("the session has not started")

	// ErrNotOffered: the agent offers no such thing (see *NotOfferedError for what).
	ErrNotOffered = errors.New("the agent does not offer it")

	// ErrTerminalLogin: Config.AuthMethod names a terminal login, which the user carries out in
	// a terminal (the method's Args), never agentdesk through authenticate (see
	// *TerminalLoginError).
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

// Error is the sentinel's text and the state: "the session has ended (it is exited)".
func (e *StateError) Error() string { return fmt.Sprintf("%v (it is %s)", e.Err, e.State) }

// Unwrap returns the sentinel.
func (e *StateError) Unwrap() error { return e.Err }

// StartTimeoutError is a start (Start, Continue, Reopen) whose context's deadline passed while
// it waited for the agent: Method is the call the agent did not answer (initialize,
// authenticate, session/new, session/resume, session/load), "" when the agent did not even get
// started (launching it took the whole time).
type StartTimeoutError struct {
	Agent  string // the agent's name (Config.AgentName)
	Method string
	After  time.Duration // the time the start was given
}

var _ error = (*StartTimeoutError)(nil)

// Error says what did not answer in how long: "Claude did not answer session/new within 2 min"
// (an event carries it: see above).
func (e *StartTimeoutError) Error() string {
	if e.Method == "" {
		return fmt.Sprintf("%s did not start within %s", e.Agent, spoken(e.After))
	}
	return fmt.Sprintf("%s did not answer %s within %s", e.Agent, e.Method, spoken(e.After))
}

// Is reports context.DeadlineExceeded: the start timed out.
func (e *StartTimeoutError) Is(target error) bool { return target == context.DeadlineExceeded }

// spoken is a duration as people say it: "2 min", "90 s", "1.5 s", "250 ms".
func spoken(d time.Duration) string {
	switch {
	case d >= time.Minute && d%time.Minute == 0:
		return fmt.Sprintf("%d min", d/time.Minute)
	case d >= 10*time.Second:
		return fmt.Sprintf("%d s", d.Round(time.Second)/time.Second)
	case d >= time.Second:
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	return fmt.Sprintf("%d ms", d.Round(time.Millisecond)/time.Millisecond)
}

// NotOfferedError is a request for something the agent does not offer. errors.Is finds
// ErrNotOffered.
type NotOfferedError struct {
	Agent   string   // the agent's name (Config.AgentName)
	What    string   // "mode", "model", "setting", "auth method", "session list"
	ID      string   // the id asked for; "" when the agent offers no What at all
	Offered []string // the ids it does offer, when known
}

var _ error = (*NotOfferedError)(nil)

// Error says what the agent lacks: `Claude offers no mode "plan"`, "Gemini offers no modes".
func (e *NotOfferedError) Error() string {
	var s string
	if e.ID == "" {
		s = fmt.Sprintf("%s offers no %s", e.Agent, plural(e.What))
	} else {
		s = fmt.Sprintf("%s offers no %s %q", e.Agent, e.What, e.ID)
	}
	if len(e.Offered) > 0 {
		s += " (it offers: " + strings.Join(e.Offered, ", ") + ")"
	}
	return s
}

// Is reports ErrNotOffered.
func (e *NotOfferedError) Is(target error) bool { return target == ErrNotOffered }

// plural is what + "s", for the few nouns NotOfferedError names.
func plural(what string) string {
	if what == "session list" {
		return "session lists"
	}
	return what + "s"
}

// TerminalLoginError is a start with an auth method the user runs in a terminal: the agent's own
// command with Args (agents.LoginCommand builds it). errors.Is finds ErrTerminalLogin.
type TerminalLoginError struct {
	Method string   // the method's id
	Args   []string // its arguments to the agent's command
}

var _ error = (*TerminalLoginError)(nil)

// Error names the method and its arguments.
func (e *TerminalLoginError) Error() string {
	return fmt.Sprintf("auth method %q is a terminal login (the agent's command with %q)", e.Method, strings.Join(e.Args, " "))
}

// Is reports ErrTerminalLogin.
func (e *TerminalLoginError) Is(target error) bool { return target == ErrTerminalLogin }

// PermissionError is a Decide that was refused: Err is ErrPermissionNotOpen or ErrNoSuchOption.
type PermissionError struct {
	RequestID string
	OptionID  string // the option asked for
	Err       error
}

var _ error = (*PermissionError)(nil)

// Error names the request (and the option when that was the fault).
func (e *PermissionError) Error() string {
	if e.Err == ErrNoSuchOption {
		return fmt.Sprintf("permission request %s has no option %q", e.RequestID, e.OptionID)
	}
	return fmt.Sprintf("permission request %s is not open (already answered or cancelled)", e.RequestID)
}

// Unwrap returns the sentinel.
func (e *PermissionError) Unwrap() error { return e.Err }

// VersionError is a start that failed because the agent speaks another major version of ACP
// than ProtocolVersion.
type VersionError struct {
	Agent   string // the agent's name (Config.AgentName)
	Version int    // the version the agent answered
}

var _ error = (*VersionError)(nil)

// Error names both versions and what to update (an event carries it: see above).
func (e *VersionError) Error() string {
	return fmt.Sprintf("%s speaks ACP version %d; agentdesk speaks version %d: update the agent or agentdesk",
		e.Agent, e.Version, schema.ProtocolVersion)
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
