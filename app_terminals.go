package main

import "agentdesk/backend/acp"

// The terminal verbs of Sessions: the person types into a running terminal of the session's
// agent from its tool card, or interrupts it. Only the agent's current terminals that are still
// running take input (acp.Session.TerminalInput).

// TerminalInput sends text to terminal terminalID of the live session as if typed on it ("\r"
// ends a line); at most terminal.MaxInput bytes at a time.
func (ss *Sessions) TerminalInput(sessionID, terminalID, text string) error {
	return ss.onLive(sessionID, func(s *acp.Session) error { return s.TerminalInput(terminalID, text) })
}

// TerminalInterrupt sends Ctrl-C to terminal terminalID of the live session: its command gets
// SIGINT, as in a terminal window.
func (ss *Sessions) TerminalInterrupt(sessionID, terminalID string) error {
	return ss.onLive(sessionID, func(s *acp.Session) error { return s.TerminalInterrupt(terminalID) })
}
