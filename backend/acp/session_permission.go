package acp

import (
	"encoding/json"
	"strings"

	"agentdesk/backend/acp/jsonrpc"
)

// pendingPermission is a parked session/request_permission: the request waits here until the
// user, Stop, a policy or the agent's exit answers it — exactly once (jsonrpc.Request.Reply enforces it).
type pendingPermission struct {
	req     *jsonrpc.Request
	summary PermissionSummary
}

// handlePermission runs on the inbound loop: it upserts the tool call the request names (it may
// never have been announced), parks the request and tells the UI. It never blocks.
func (s *Session) handlePermission(req *jsonrpc.Request) {
	var p RequestPermissionParams
	if err := json.Unmarshal(req.Params, &p); err != nil {
		req.Reply(nil, &jsonrpc.Error{Code: CodeInvalidParams, Message: "invalid session/request_permission params: " + err.Error()})
		return
	}
	if len(p.Options) == 0 {
		req.Reply(nil, &jsonrpc.Error{Code: CodeInvalidParams, Message: "session/request_permission has no options"})
		return
	}
	s.mu.Lock()
	change := s.tr.UpsertTool(p.ToolCall, false)
	s.pushChange(change)
	s.toolCardLocked(change.Entry.ID)
	sum := PermissionSummary{
		RequestID:  strings.TrimSpace(string(req.ID)),
		ToolCallID: change.Entry.ID,
		Title:      change.Entry.Title,
	}
	for _, o := range p.Options {
		sum.Options = append(sum.Options, OptionSummary{ID: o.OptionID, Name: o.Name, Kind: o.Kind})
	}
	if s.state == StateCancelling || s.state == StateExited || s.state == StateFailed {
		// Stop already ran: this request is cancelled like the others were.
		s.unlock()
		req.Reply(RequestPermissionResult{Outcome: PermissionOutcome{Outcome: "cancelled"}}, nil)
		return
	}
	s.perms[sum.RequestID] = &pendingPermission{req: req, summary: sum}
	s.waitTickLocked()
	s.pushEvent(Event{Kind: EventPermission, RequestID: sum.RequestID, ToolCallID: sum.ToolCallID,
		Title: sum.Title, Options: sum.Options})
	s.unlock()
}

// AnswerPermission answers an open permission request with one of the options it offered, as
// the user's decision. See Decide.
func (s *Session) AnswerPermission(requestID, optionID string) error {
	return s.Decide(requestID, optionID, DecidedByUser)
}

// Decide answers an open permission request with one of the options it offered, recording who
// decided (DecidedBy*). Called from any goroutine; it does not wait for the agent. It fails
// when the request is not open (already answered, cancelled) or the option was not offered.
func (s *Session) Decide(requestID, optionID, decidedBy string) error {
	s.mu.Lock()
	p, ok := s.perms[requestID]
	if !ok {
		s.unlock()
		return &PermissionError{RequestID: requestID, OptionID: optionID, Err: ErrPermissionNotOpen}
	}
	valid := false
	for _, o := range p.summary.Options {
		valid = valid || o.ID == optionID
	}
	if !valid {
		s.unlock()
		return &PermissionError{RequestID: requestID, OptionID: optionID, Err: ErrNoSuchOption}
	}
	delete(s.perms, requestID)
	s.decisionLocked(p, "selected", optionID, decidedBy)
	s.unlock()
	// Reply outside the lock: a write may wait on a full stdin pipe.
	p.req.Reply(RequestPermissionResult{Outcome: PermissionOutcome{Outcome: "selected", OptionID: optionID}}, nil)
	return nil
}

// takePermissionsLocked removes every open permission request and elicitation and announces
// each as cancelled; the caller replies to the returned requests after unlocking
// (replyCancelled answers each as its method wants).
func (s *Session) takePermissionsLocked() []*jsonrpc.Request {
	reqs := s.takeElicitationsLocked()
	for id, p := range s.perms {
		reqs = append(reqs, p.req)
		delete(s.perms, id)
		s.decisionLocked(p, "cancelled", "", DecidedByCancel)
	}
	return reqs
}

func replyCancelled(reqs []*jsonrpc.Request) {
	for _, r := range reqs {
		if r.Method == MethodElicitationCreate {
			r.Reply(ElicitationResult{Action: ElicitCancel}, nil)
			continue
		}
		r.Reply(RequestPermissionResult{Outcome: PermissionOutcome{Outcome: "cancelled"}}, nil)
	}
}
