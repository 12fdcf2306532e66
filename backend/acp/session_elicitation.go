package acp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"agentdesk/backend/acp/elicit"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// pendingElicitation is an open elicitation/create: the request waits here until a person,
// Stop, the agent or its exit answers it — exactly once (jsonrpc.Request.Reply enforces it).
type pendingElicitation struct {
	req     *jsonrpc.Request
	entryID string
	mode    string
	schema  *elicit.Schema // form
	url     string         // url
	elicID  string         // url: the agent's elicitationId
}

// elicitationDesk is the session's open elicitations and its accepted url ones awaiting
// elicitation/complete. Guarded by Session.mu; its methods neither emit nor reply: the Session
// announces what they return.
type elicitationDesk struct {
	open map[string]*pendingElicitation // by JSON-RPC id (as the entry's requestId reads)
	urls map[string]string              // accepted url elicitations: elicitationId → entry id, until complete
}

func newElicitationDesk() elicitationDesk {
	return elicitationDesk{open: map[string]*pendingElicitation{}, urls: map[string]string{}}
}

// take removes the open elicitation id; ok is false when none is open.
func (d *elicitationDesk) take(id string) (*pendingElicitation, bool) { return takeEntry(d.open, id) }

// takeAll removes every open elicitation (Stop, the end of the turn, the agent's exit).
func (d *elicitationDesk) takeAll() []*pendingElicitation { return takeEvery(d.open) }

// answer checks an answer to the open elicitation requestID and, when it is one, removes it
// (an accepted url one waits in urls for its completion). It returns the reply to send, what
// the transcript keeps of the content (secrets masked) and the state the entry moves to. A
// refused answer leaves the elicitation open; the error is an *ElicitationError.
func (d *elicitationDesk) answer(requestID, action string, content map[string]any) (*pendingElicitation, ElicitationResult, map[string]any, string, error) {
	pe, ok := d.open[requestID]
	if !ok {
		return nil, ElicitationResult{}, nil, "", &ElicitationError{RequestID: requestID, Err: ErrElicitationNotOpen}
	}
	res := ElicitationResult{Action: action}
	var kept map[string]any
	switch action {
	case ElicitAccept:
		if pe.mode == ElicitModeForm {
			sent, err := pe.schema.CheckContent(content)
			if err != nil {
				return nil, res, nil, "", &ElicitationError{RequestID: requestID, Err: ErrElicitationContent, Cause: err}
			}
			res.Content, kept = sent, pe.schema.Masked(sent)
		}
	case ElicitDecline, ElicitCancel:
	default:
		return nil, res, nil, "", &ElicitationError{RequestID: requestID, Err: ErrElicitationAction, Action: action}
	}
	delete(d.open, requestID)
	if pe.mode == ElicitModeURL && action == ElicitAccept {
		d.urls[pe.elicID] = pe.entryID
	}
	state := map[string]string{ElicitAccept: ElicitAccepted, ElicitDecline: ElicitDeclined, ElicitCancel: ElicitCancelled}[action]
	return pe, res, kept, state, nil
}

// url is the URL of the url elicitation requestID while it is open or accepted and not yet
// complete (accepted ones are read from the transcript tr).
func (d *elicitationDesk) url(requestID string, tr *Transcript) (string, error) {
	if pe, ok := d.open[requestID]; ok {
		if pe.mode != ElicitModeURL {
			return "", &ElicitationError{RequestID: requestID, Err: ErrElicitationNotURL}
		}
		return pe.url, nil
	}
	for _, entryID := range d.urls {
		if e, ok := tr.Entry(entryID); ok && e.Elicitation.RequestID == requestID {
			return e.Elicitation.URL, nil
		}
	}
	return "", &ElicitationError{RequestID: requestID, Err: ErrElicitationNotOpen}
}

// complete removes the url elicitation elicID from those accepted, or from those still open
// (then open is it: it is to be answered cancel); ok is false when neither holds it.
func (d *elicitationDesk) complete(elicID string) (entryID string, open *pendingElicitation, ok bool) {
	if entryID, ok = d.urls[elicID]; ok {
		delete(d.urls, elicID)
		return entryID, nil, true
	}
	for id, pe := range d.open {
		if pe.mode == ElicitModeURL && pe.elicID == elicID {
			delete(d.open, id)
			return pe.entryID, pe, true
		}
	}
	return "", nil, false
}

// handleElicitation runs on the inbound loop: it validates the request, refuses it -32602
// when its mode is not enabled or it is malformed (a malformed one is shown, state invalid),
// else adds its entry and parks it. It never blocks.
func (s *Session) handleElicitation(req *jsonrpc.Request) {
	p, err := jsonrpc.DecodeParams[ElicitationCreateParams](MethodElicitationCreate, req.Params)
	if err != nil {
		req.Reply(nil, err)
		return
	}
	if p.Mode != ElicitModeForm && p.Mode != ElicitModeURL {
		req.Reply(nil, &jsonrpc.Error{Code: schema.CodeInvalidParams, Message: fmt.Sprintf("elicitation mode %q is not supported (form or url)", p.Mode)})
		return
	}
	if !s.cfg.Elicit.allows(p.Mode) {
		req.Reply(nil, &jsonrpc.Error{Code: schema.CodeInvalidParams,
			Message: fmt.Sprintf("elicitation mode %q is not supported by this client (it was not advertised in clientCapabilities.elicitation)", p.Mode)})
		return
	}
	el := Elicitation{RequestID: strings.TrimSpace(string(req.ID)), Mode: p.Mode, Message: p.Message, State: ElicitOpen}
	pe := &pendingElicitation{req: req, mode: p.Mode}
	var invalid error
	switch p.Mode {
	case ElicitModeForm:
		pe.schema, invalid = elicit.Parse(p.RequestedSchema)
		if invalid == nil {
			el.Schema, el.Fields = p.RequestedSchema, pe.schema.Fields
		}
	case ElicitModeURL:
		el.URL, el.ElicitationID = cutText(p.URL, elicit.MaxURL), cutText(p.ElicitationID, elicit.MaxName)
		el.Host, invalid = elicit.CheckURL(p.URL)
		if invalid == nil && p.ElicitationID == "" {
			invalid = fmt.Errorf("a url elicitation needs an elicitationId")
		}
		pe.url, pe.elicID = p.URL, p.ElicitationID
	}
	if invalid == nil && len(p.Message) > maxElicitMessage {
		invalid = fmt.Errorf("message is %d bytes, more than the %d allowed", len(p.Message), maxElicitMessage)
	}

	s.mu.Lock()
	if invalid == nil && !s.knownSessionLocked(p.SessionID) { // a child's is asked in the session's view
		invalid = fmt.Errorf("sessionId %q is not this session", p.SessionID)
	}
	over := s.state == StateCancelling || s.state == StateExited || s.state == StateFailed
	switch {
	case invalid != nil:
		el.State, el.Error = ElicitInvalid, invalid.Error()
	case over: // Stop already ran: this one is cancelled like the others were
		el.State, el.AnsweredBy = ElicitCancelled, AnsweredByCancel
	}
	change := s.tr.AddElicitation(el)
	s.pushChange(change)
	s.draft.AddQuestion(change.Entry.ID)
	if el.State == ElicitOpen {
		pe.entryID = change.Entry.ID
		s.elicits.open[el.RequestID] = pe
		s.waitTickLocked()
	}
	s.unlock()
	switch el.State {
	case ElicitInvalid:
		req.Reply(nil, &jsonrpc.Error{Code: schema.CodeInvalidParams, Message: "invalid elicitation/create: " + invalid.Error()})
	case ElicitCancelled:
		req.Reply(ElicitationResult{Action: ElicitCancel}, nil)
	}
}

// AnswerElicitation answers an open elicitation as the person in the window (AnsweredByUser).
// See AnswerElicitationAs.
func (s *Session) AnswerElicitation(requestID, action string, content map[string]any) error {
	return s.AnswerElicitationAs(requestID, action, content, AnsweredByUser)
}

// AnswerElicitationAs answers the open elicitation with JSON-RPC id requestID (as its entry's
// requestId reads) with action accept, decline or cancel, recording who answered (AnsweredBy*).
// A form's accept sends content, checked against the schema first; a url's accept means the
// person agreed to open it (content is ignored). Called from any goroutine; it does not wait
// for the agent. Errors are *ElicitationError: ErrElicitationNotOpen (unknown, answered,
// cancelled), ErrElicitationAction, or ErrElicitationContent with the *elicit.FieldError at fault;
// after a refused answer the elicitation is still open.
func (s *Session) AnswerElicitationAs(requestID, action string, content map[string]any, by string) error {
	s.mu.Lock()
	pe, res, kept, state, err := s.elicits.answer(requestID, action, content)
	if err != nil {
		s.unlock()
		return err
	}
	s.setElicitationLocked(pe.entryID, func(el *Elicitation) {
		el.State, el.AnsweredBy, el.Answer = state, by, kept
	})
	s.unlock()
	// Reply outside the lock (it only queues the answer for the connection's writer).
	s.secrets.reply(pe, res, kept, s.cfg.LearnSecret)
	return nil
}

// ElicitationURL returns the URL of the url-mode elicitation requestID while it is open or
// accepted and not yet complete: the only URL the app opens for an elicitation (the page never
// supplies one). Errors: ErrElicitationNotOpen, ErrElicitationNotURL, as *ElicitationError.
func (s *Session) ElicitationURL(requestID string) (string, error) {
	s.mu.Lock()
	defer s.unlock()
	return s.elicits.url(requestID, s.tr)
}

// setElicitationLocked changes an elicitation entry and announces it. The caller holds s.mu.
func (s *Session) setElicitationLocked(entryID string, f func(*Elicitation)) {
	if c, ok := s.tr.SetElicitation(entryID, f); ok {
		s.pushChange(c)
	}
	s.waitTickLocked()
}

// takeElicitationsLocked removes every open elicitation and shows each cancelled by Stop (or
// the end of the turn, or the agent's exit); the caller replies after unlocking.
func (s *Session) takeElicitationsLocked() []*jsonrpc.Request {
	var reqs []*jsonrpc.Request
	for _, pe := range s.elicits.takeAll() {
		reqs = append(reqs, pe.req)
		s.setElicitationLocked(pe.entryID, func(el *Elicitation) {
			el.State, el.AnsweredBy = ElicitCancelled, AnsweredByCancel
		})
	}
	return reqs
}

// withdrawElicitation answers the open elicitation with JSON-RPC id (trimmed raw JSON)
// "cancel" because the agent withdrew it ($/cancel_request). It reports whether one was open.
func (s *Session) withdrawElicitation(id string) bool {
	s.mu.Lock()
	pe, ok := s.elicits.take(id)
	if ok {
		s.setElicitationLocked(pe.entryID, func(el *Elicitation) {
			el.State, el.AnsweredBy = ElicitCancelled, AnsweredByAgent
		})
	}
	s.unlock()
	if ok {
		pe.req.Reply(ElicitationResult{Action: ElicitCancel}, nil)
	}
	return ok
}

// completeElicitation closes the url elicitation elicitation/complete names: an accepted one
// reads completed; one still open is answered cancel (the person agreed to nothing) and reads
// completed by the agent. An unknown id is logged and ignored.
func (s *Session) completeElicitation(params json.RawMessage) {
	var p ElicitationCompleteParams
	if json.Unmarshal(params, &p) != nil || p.ElicitationID == "" {
		s.cfg.Logf("%s: ignored an elicitation/complete without an elicitationId", s.cfg.AgentName)
		return
	}
	s.mu.Lock()
	entryID, open, ok := s.elicits.complete(p.ElicitationID)
	if ok {
		s.setElicitationLocked(entryID, func(el *Elicitation) {
			el.State = ElicitCompleted
			if open != nil || el.AnsweredBy == "" {
				el.AnsweredBy = AnsweredByAgent
			}
		})
	}
	s.unlock()
	if open != nil {
		open.req.Reply(ElicitationResult{Action: ElicitCancel}, nil)
	}
	if !ok {
		s.cfg.Logf("%s: ignored elicitation/complete for unknown elicitation %q", s.cfg.AgentName, p.ElicitationID)
	}
}

// secretReplies are the elicitation replies being written that carry a secret field's value,
// each with its masked copy, so that the journal is given the masked line (mask). It has its
// own lock: mask runs under the connection's outbound queue lock, never under Session.mu.
type secretReplies struct {
	mu      sync.Mutex
	writing map[*pendingElicitation][2][]byte
}

// reply sends res to pe's request; when what is kept (kept) differs from what is sent (secret
// fields), learn is first given each secret value (the caller's masker; nil: none) and mask
// hands the journal the masked copy of the reply line while it is written.
func (r *secretReplies) reply(pe *pendingElicitation, res ElicitationResult, kept map[string]any, learn func(string)) {
	if res.Content == nil || !hasSecret(pe.schema, res.Content) {
		pe.req.Reply(res, nil)
		return
	}
	if learn != nil {
		for k, v := range res.Content {
			if f := pe.schema.Field(k); f != nil && f.Secret {
				learn(v.(string)) // a secret field is a string (CheckContent)
			}
		}
	}
	real, err1 := json.Marshal(res)
	masked, err2 := json.Marshal(ElicitationResult{Action: res.Action, Content: kept})
	if err1 != nil || err2 != nil {
		pe.req.Reply(res, nil) // cannot happen: the content was checked to be plain JSON values
		return
	}
	r.mu.Lock()
	if r.writing == nil {
		r.writing = map[*pendingElicitation][2][]byte{}
	}
	r.writing[pe] = [2][]byte{real, masked}
	r.mu.Unlock()
	pe.req.Reply(res, nil)
	r.mu.Lock()
	delete(r.writing, pe)
	r.mu.Unlock()
}

// mask returns line with the result of any reply being written with a secret in it replaced
// by its masked copy; other lines are returned as they are.
func (r *secretReplies) mask(dir jsonrpc.Direction, method string, line []byte) []byte {
	if dir != jsonrpc.Out || method != "" {
		return line
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, pair := range r.writing {
		if bytes.Contains(line, pair[0]) {
			return bytes.Replace(line, pair[0], pair[1], 1)
		}
	}
	return line
}

func hasSecret(schema *elicit.Schema, content map[string]any) bool {
	for k := range content {
		if f := schema.Field(k); f != nil && f.Secret {
			return true
		}
	}
	return false
}
