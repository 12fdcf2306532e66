package acp

import (
	"bytes"
	"encoding/json"

	"agentdesk/backend/acp/jsonrpc"
)

// HandleNotification implements jsonrpc.Handler. It runs on the connection's inbound loop, in wire order,
// and never blocks.
func (s *Session) HandleNotification(method string, params json.RawMessage) {
	switch method {
	case MethodSessionUpdate:
		s.mu.Lock()
		s.applyUpdateLocked(params)
		s.mu.Unlock()
	case MethodCancelRequest:
		s.cancelRequest(params)
	default:
		s.cfg.Logf("%s: ignored notification %q", s.cfg.AgentName, method)
	}
}

// HandleRequest implements jsonrpc.Handler. Permission requests are parked until answered; requests for
// capabilities we do not advertise get -32601 at once. fs/* and terminal/* requests are the
// connection's (connHandler): here they get -32601 too.
func (s *Session) HandleRequest(req *jsonrpc.Request) {
	switch req.Method {
	case MethodRequestPermission:
		s.handlePermission(req)
	default:
		req.Reply(nil, &jsonrpc.Error{Code: CodeMethodNotFound, Message: "Method not found: " + req.Method})
	}
}

// applyUpdateLocked reduces one session/update into the transcript and queues its events.
// Updates for a session id we do not know yet (session/new has not returned) are kept in order
// and applied when it does.
func (s *Session) applyUpdateLocked(params json.RawMessage) {
	if s.agentSessionID == "" {
		s.early = append(s.early, params)
		return
	}
	sessionID, u, err := DecodeNotification(params)
	if err != nil && u.Raw == nil {
		s.cfg.Logf("%s: skipped a session/update that does not decode: %v", s.cfg.AgentName, err)
		return
	}
	if sessionID != s.agentSessionID {
		s.cfg.Logf("%s: skipped a session/update for unknown session %q", s.cfg.AgentName, sessionID)
		return
	}
	if err != nil {
		// A known kind with fields of the wrong shape: show it raw rather than lose it.
		u = Update{Kind: "invalid " + u.Kind, Raw: u.Raw} // never typed: rendered as unknown
		s.cfg.Logf("%s: %v", s.cfg.AgentName, err)
	}
	if u.IsMetadata() {
		s.applyMetaLocked(u)
		return
	}
	if s.replaying {
		return // session/load replays history we already show (and keep); the journal has it
	}
	for _, c := range s.tr.Apply(u) {
		s.pushChange(c)
	}
}

// cancelRequest handles $/cancel_request for one of the agent's requests: a parked permission
// is answered "cancelled".
func (s *Session) cancelRequest(params json.RawMessage) {
	var p jsonrpc.CancelRequestParams
	if json.Unmarshal(params, &p) != nil {
		return
	}
	id := string(bytes.TrimSpace(p.RequestID))
	s.mu.Lock()
	perm, ok := s.perms[id]
	if ok {
		delete(s.perms, id)
		s.pushEvent(Event{Kind: EventPermissionDone, RequestID: id, Outcome: "cancelled", DecidedBy: DecidedByCancel})
	}
	s.mu.Unlock()
	if ok {
		replyCancelled([]*jsonrpc.Request{perm.req})
	}
}
