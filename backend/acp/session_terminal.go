package acp

import (
	"bytes"
	"encoding/json"
	"os"
)

// connHandler is the Handler of one agent connection: the session's, plus the terminals that
// connection's agent has created. Terminals belong to the agent process that made them: when the
// connection ends they are killed (see watchTerminals), and a restarted agent starts afresh.
type connHandler struct {
	*Session
	terms *terminals
}

// HandleRequest serves terminal/* requests and leaves the rest to the session.
func (h connHandler) HandleRequest(req *Request) {
	switch req.Method {
	case MethodTerminalCreate, MethodTerminalOutput, MethodTerminalWaitForExit, MethodTerminalKill, MethodTerminalRelease:
		h.terms.handle(req)
	default:
		h.Session.HandleRequest(req)
	}
}

// HandleNotification answers a $/cancel_request for a pending terminal/wait_for_exit (-32800)
// and leaves the rest to the session.
func (h connHandler) HandleNotification(method string, params json.RawMessage) {
	if method == MethodCancelRequest {
		var p CancelRequestParams
		if json.Unmarshal(params, &p) == nil && h.terms.cancelWait(string(bytes.TrimSpace(p.RequestID))) {
			return
		}
	}
	h.Session.HandleNotification(method, params)
}

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

// watchTerminals kills the connection's terminals once it has ended and closes done when they
// are gone and watched (the connection's watch) is closed; their last output is published before.
func watchTerminals(conn *Conn, terms *terminals, watched <-chan struct{}, done chan<- struct{}) {
	<-conn.Done()
	terms.closeAll()
	<-watched
	close(done)
}
