package acp

import (
	"cmp"
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// pendingPermission is a parked session/request_permission: the request waits here until the
// user, Stop, a policy or the agent's exit answers it — exactly once (jsonrpc.Request.Reply enforces it).
type pendingPermission struct {
	req     *jsonrpc.Request
	summary PermissionSummary
	query   PermissionQuery // what it asks of the rules (OpenPermission)
	child   string          // our id of the subagent that asks; "" the session itself
}

// permissionDesk is the session's permission requests: those parked until someone answers
// them, the decisions made (Snapshot.Decisions) and the rules that have answered. Guarded by
// Session.mu; its methods neither emit nor reply: the Session announces what they return.
type permissionDesk struct {
	open      map[string]*pendingPermission // parked, by JSON-RPC id (as the request id reads)
	decisions []DecisionSummary             // closed, in closing order
	told      map[string]bool               // the rules that have answered: the first time, a notice said so
}

func newPermissionDesk(saved []DecisionSummary) permissionDesk {
	return permissionDesk{open: map[string]*pendingPermission{}, decisions: slices.Clone(saved), told: map[string]bool{}}
}

// take removes the parked request id; ok is false when it is not open.
func (d *permissionDesk) take(id string) (*pendingPermission, bool) { return takeEntry(d.open, id) }

// choose removes the parked request id for an answer with optionID: it must be open and the
// option one it offered, else the request stays parked and the error says which.
func (d *permissionDesk) choose(id, optionID string) (*pendingPermission, error) {
	p, ok := d.open[id]
	switch {
	case !ok:
		return nil, &PermissionError{RequestID: id, OptionID: optionID, Err: ErrPermissionNotOpen}
	case !offered(p.summary.Options, optionID):
		return nil, &PermissionError{RequestID: id, OptionID: optionID, Err: ErrNoSuchOption}
	}
	delete(d.open, id)
	return p, nil
}

// takeAll removes every parked request (Stop, the end of the turn, the agent's exit).
func (d *permissionDesk) takeAll() []*pendingPermission { return takeEvery(d.open) }

// takeEntry removes id from m and returns its value; ok is false when m has none (the desks'
// requests are answered once: whoever takes one answers it).
func takeEntry[V any](m map[string]V, id string) (v V, ok bool) {
	if v, ok = m[id]; ok {
		delete(m, id)
	}
	return v, ok
}

// takeEvery empties m and returns its values, in no particular order.
func takeEvery[V any](m map[string]V) []V {
	out := slices.Collect(maps.Values(m))
	clear(m)
	return out
}

// firstAnswer reports whether the rule ruleID answers for the first time in this session.
func (d *permissionDesk) firstAnswer(ruleID string) bool {
	if d.told[ruleID] {
		return false
	}
	d.told[ruleID] = true
	return true
}

// summaries are the parked requests as a snapshot shows them.
func (d *permissionDesk) summaries() []PermissionSummary {
	out := []PermissionSummary{}
	for _, p := range d.open {
		out = append(out, p.summary)
	}
	return out
}

// OpenPermission returns what the open permission request requestID asks, as Config.Rules
// judged it, and its summary; ok is false when it is not open. It does not wait.
func (s *Session) OpenPermission(requestID string) (PermissionQuery, PermissionSummary, bool) {
	s.mu.Lock()
	p, ok := s.perms.open[requestID]
	s.unlock()
	if !ok {
		return PermissionQuery{}, PermissionSummary{}, false
	}
	return p.query, p.summary, true // never changed once parked
}

// handlePermission runs on the inbound loop: it upserts the tool call the request names (it may
// never have been announced), asks the rules (Config.Rules) and, when none decides, parks the
// request and tells the UI. It blocks on nothing but the rules.
func (s *Session) handlePermission(req *jsonrpc.Request) {
	var p schema.RequestPermissionParams
	if err := json.Unmarshal(req.Params, &p); err != nil {
		req.Reply(nil, &jsonrpc.Error{Code: schema.CodeInvalidParams, Message: "invalid session/request_permission params: " + err.Error()})
		return
	}
	if len(p.Options) == 0 {
		req.Reply(nil, &jsonrpc.Error{Code: schema.CodeInvalidParams, Message: "session/request_permission has no options"})
		return
	}
	s.mu.Lock()
	var sum PermissionSummary
	var change Change
	child := s.subagentFor(p.SessionID)
	if child != nil {
		// Asked inside a subagent: its card goes into the child's transcript, and the person is
		// asked in the session's view, the card named by the child (session_subagents.go).
		change = child.tr.UpsertTool(p.ToolCall, false)
		child.out.push(changeEvent(change))
		sum.Title = cmp.Or(child.info.Title, "Subagent") + ": " + change.Entry.Title
	} else {
		change = s.tr.UpsertTool(p.ToolCall, false)
		s.pushChange(change)
		s.toolCardLocked(change.Entry.ID)
		sum.ToolCallID, sum.Title = change.Entry.ID, change.Entry.Title
	}
	sum.RequestID, sum.ToolKind = strings.TrimSpace(string(req.ID)), change.Entry.ToolKind
	for _, o := range p.Options {
		sum.Options = append(sum.Options, OptionOf(o.OptionID, o.Name, o.Kind))
	}
	q := permissionQuery(change.Entry, sum.Options)
	s.unlock()

	// The rules may look at the file system (symlinks): not under the lock. Nothing else
	// answers this request meanwhile: nobody has seen it.
	var rule RuleDecision
	decided := false
	if s.cfg.Rules != nil {
		if rule, decided = s.cfg.Rules.Decide(q); !decided {
			sum.RuleOptions = s.cfg.Rules.Offer(q)
		}
	}

	s.mu.Lock()
	if s.state == StateCancelling || s.state == StateExited || s.state == StateFailed {
		// Stop already ran: this request is cancelled like the others were.
		s.unlock()
		req.Reply(schema.RequestPermissionResult{Outcome: schema.PermissionOutcome{Outcome: "cancelled"}}, nil)
		return
	}
	if decided && offered(sum.Options, rule.OptionID) {
		s.ruleDecisionLocked(sum, rule)
		s.unlock()
		req.Reply(schema.RequestPermissionResult{Outcome: schema.PermissionOutcome{Outcome: "selected", OptionID: rule.OptionID}}, nil)
		return
	}
	pending := &pendingPermission{req: req, summary: sum, query: q}
	if child != nil {
		pending.child = child.info.SessionID
	}
	s.perms.open[sum.RequestID] = pending
	s.waitTickLocked()
	s.pushEvent(Event{Kind: EventPermission, RequestID: sum.RequestID, ToolCallID: sum.ToolCallID,
		Title: sum.Title, Options: sum.Options, ToolKind: sum.ToolKind, RuleOptions: sum.RuleOptions})
	s.unlock()
}

// ruleDecisionLocked records a request a rule answered before anyone saw it: the decision, the
// first time the rule answers in this session a notice in the transcript, and one
// permission_done event that carries the whole request (no permission event came before it).
// The caller holds s.mu.
func (s *Session) ruleDecisionLocked(sum PermissionSummary, rule RuleDecision) {
	if s.perms.firstAnswer(rule.RuleID) {
		s.pushChange(s.tr.AddNotice(Notice{Severity: "info", Title: "A rule of yours answered: " + rule.Label,
			Description: "It answers every request it matches in this session without asking you. " +
				"Pause, change or delete it in Rules."}))
	}
	d := DecisionOf(sum, "selected", rule.OptionID, DecidedByRule)
	d.RuleID, d.RuleLabel = rule.RuleID, rule.Label
	s.perms.decisions = append(s.perms.decisions, d)
	s.draft.AddDecision(receiptDecision(sum.Title, d))
	s.pushEvent(Event{Kind: EventPermissionDone, RequestID: d.RequestID, ToolCallID: sum.ToolCallID, Title: sum.Title,
		Options: sum.Options, ToolKind: sum.ToolKind, Decision: &d})
}

// offered reports whether id is one of options.
func offered(options []OptionSummary, id string) bool {
	for _, o := range options {
		if o.ID == id {
			return true
		}
	}
	return false
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
	p, err := s.perms.choose(requestID, optionID)
	if err != nil {
		s.unlock()
		return err
	}
	s.decisionLocked(p, "selected", optionID, decidedBy)
	s.unlock()
	// Reply outside the lock (it only queues the answer for the connection's writer).
	p.req.Reply(schema.RequestPermissionResult{Outcome: schema.PermissionOutcome{Outcome: "selected", OptionID: optionID}}, nil)
	return nil
}

// takePermissionsLocked removes every open permission request and elicitation and announces
// each as cancelled; the caller replies to the returned requests after unlocking
// (replyCancelled answers each as its method wants).
func (s *Session) takePermissionsLocked() []*jsonrpc.Request {
	reqs := s.takeElicitationsLocked()
	for _, p := range s.perms.takeAll() {
		reqs = append(reqs, p.req)
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
		r.Reply(schema.RequestPermissionResult{Outcome: schema.PermissionOutcome{Outcome: "cancelled"}}, nil)
	}
}
