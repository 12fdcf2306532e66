package acp

import "agentdesk/backend/acp/terminal"

// SetServeHook makes cfg's session run hook on the worker of each fs/* and terminal/create
// request before serving it, so a test can hold workers busy.
func SetServeHook(cfg *Config, hook func(method string)) { cfg.serveHook = hook }

// CheckInvariants makes every session check its state machine's invariants each time it releases
// its lock (session_state.go); TestMain calls it first and fails a run in which one broke
// (InvariantBreaks).
func CheckInvariants() { checkInvariants.Store(true) }

// InvariantBreaks is how many invariant checks failed in this process, and what the first found.
func InvariantBreaks() (uint64, string) {
	if first := firstBreak.Load(); first != nil {
		return invariantBreaks.Load(), *first
	}
	return 0, ""
}

// The caps on one connection's requests in flight, for the tests that reach them.
const (
	MaxTerminals = terminal.MaxRunning // commands running at a time
	MaxRunning   = maxRunning          // fs/* and terminal/create requests served at a time
	MaxWaiting   = maxWaiting          // more of those waiting; also terminal/wait_for_exit requests pending
)
