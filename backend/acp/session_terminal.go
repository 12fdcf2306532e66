package acp

import "os"

// newTerminals makes the terminals of a new connection to tr: they start in the session folder
// with the agent's environment, and their output shows in the tool cards that name them.
func (s *Session) newTerminals(tr Transport) *terminals {
	env := os.Environ()
	if e, ok := tr.(interface{ Env() []string }); ok && e.Env() != nil {
		env = e.Env()
	}
	return newTerminals(s.cfg.Cwd, env, s.newTerminalID, s.publishTerminal)
}

// newTerminalID is an id no terminal of this session has had.
func (s *Session) newTerminalID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tr.NewTerminalID()
}

// publishTerminal shows a terminal's latest output in the tool cards that name it.
func (s *Session) publishTerminal(id string, v TerminalView) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.tr.SetTerminal(id, v) {
		s.pushChange(c)
	}
}
