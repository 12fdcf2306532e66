package acp

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"agentdesk/backend/acp/terminal"
)

// newTerminals makes the terminals of a new connection to tr: they start in the session folder
// with the agent's environment, and their output shows in the tool cards that name them.
func (s *Session) newTerminals(tr Transport) *terminal.Set {
	ts := terminal.NewSet(s.cfg.Cwd, s.cfg.Dirs, s.terminalEnv(tr), s.newTerminalID, s.publishTerminal)
	ts.OnStart = s.terminalStarted
	return ts
}

// terminalStarted tells the running turn's receipt of a terminal the agent created (a worker
// calls it once the command runs; a quick one may have ended already).
func (s *Session) terminalStarted(id, line string) {
	s.mu.Lock()
	defer s.unlock()
	s.draft.TerminalStarted(id, line, s.tr.terms[id].ExitStatus)
}

// terminalEnv is the base environment of the agent's terminals: the one the agent was launched
// with (Config.Env, else the one the transport says it started the agent with), never all of
// agentdesk's own: without either, only the few variables of minimalEnv.
func (s *Session) terminalEnv(tr Transport) []string {
	if s.cfg.Env != nil {
		return s.cfg.Env
	}
	if e, ok := tr.(EnvTransport); ok && e.Env() != nil {
		return e.Env()
	}
	return minimalEnv()
}

// minimalEnv is what a command needs of agentdesk's environment to run as the user (where
// programs are, who and where the user is, language and time zone), and nothing else: secrets an
// environment may hold stay out.
func minimalEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "PATH", name == "HOME", name == "USER", name == "LOGNAME", name == "SHELL", name == "TERM",
			name == "TMPDIR", name == "TZ", name == "LANG", name == "LANGUAGE", strings.HasPrefix(name, "LC_"):
			out = append(out, kv)
		}
	}
	return out
}

// newTerminalID is an id no terminal of this session has had.
func (s *Session) newTerminalID() string {
	s.mu.Lock()
	defer s.unlock()
	return s.tr.NewTerminalID()
}

// publishTerminal shows a terminal's latest output in the tool cards that name it.
func (s *Session) publishTerminal(id string, v terminal.View) {
	s.mu.Lock()
	defer s.unlock()
	for _, c := range s.tr.SetTerminal(id, v) {
		s.pushChange(c)
	}
	s.draft.TerminalEnded(id, v.ExitStatus)
}

// ErrNoSuchTerminal: input for a terminal that is not a running terminal of the session's agent
// (never created, released, or of an agent that has since exited).
var ErrNoSuchTerminal = errors.New("no such terminal of this session's agent")

// TerminalInput sends text to terminal id of the session's current agent as if the person typed
// it (see terminal.Terminal.Input): "\r" ends a line, "\x03" is Ctrl-C. At most terminal.MaxInput bytes
// go at a time.
func (s *Session) TerminalInput(id, text string) error {
	if text == "" {
		return nil
	}
	if len(text) > terminal.MaxInput {
		return fmt.Errorf("input of %d bytes is too long for a terminal: send at most %d at a time", len(text), terminal.MaxInput)
	}
	s.mu.Lock()
	h := s.handler
	s.unlock()
	if h == nil {
		return ErrNoSuchTerminal
	}
	t, ok := h.terms.Lookup(id)
	if !ok {
		return fmt.Errorf("%w: %q", ErrNoSuchTerminal, id)
	}
	return t.Input([]byte(text))
}

// TerminalInterrupt types Ctrl-C into terminal id: the terminal's line discipline sends SIGINT
// to the command's foreground process group, as in a terminal window (a command that reads raw
// input gets the character instead, as it would there).
func (s *Session) TerminalInterrupt(id string) error {
	return s.TerminalInput(id, "\x03")
}
