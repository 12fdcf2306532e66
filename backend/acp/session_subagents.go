package acp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/google/uuid"

	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// Subagent sessions (ACP 1.35, clientCapabilities.subagents): an agent that delegates work may
// expose each subagent as a child session with its own session id. It announces the child with
// a subagent_update on the parent session (the immediate parent: a child may announce children
// of its own), then sends the child's messages, tool calls and requests on the same connection,
// naming the child's id. agentdesk gives each child an id of its own (a uuid, never the agent's
// words, never a path), a transcript of its own and an event stream of its own (Event.SessionID
// the child's, Event.ParentID its parent's), and shows it in the parent's transcript as one
// subagent entry, changed in place as the agent reports the child's title, state and
// capabilities.
//
// A child is confined exactly like its parent: its fs/* and terminal/* requests are served by
// the parent's connection, beneath the parent's folders (a cwd or additionalDirectories the
// agent reports for the child are shown, never obeyed), its permission requests go through the
// parent's rules and are put to the person in the parent's view. Only children the agent
// announced are served: an update or request for any other session id is refused as before.
// An agent may announce at most MaxSubagents children per session, at most MaxSubagentDepth
// deep; what is beyond is refused, once noted in the transcript.

// UpdateSubagent announces or updates a child session (schema 1.35, unstable).
const UpdateSubagent = "subagent_update"

// KindSubagent is a child session the agent started: a card in its parent's transcript.
const KindSubagent EntryKind = "subagent"

// Bounds on the children an agent may announce: an agent may flood.
const (
	// MaxSubagents is how many children (at every depth together) one session's agent may announce.
	MaxSubagents = 64
	// MaxSubagentDepth is how deep they may nest: 1 is a child of the session, 2 a child of a child.
	MaxSubagentDepth = 3
	// maxSubagentText bounds a child's title and description; maxSubagentID the agent's id of it.
	maxSubagentText = 1 << 10
	maxSubagentID   = 256
)

// Subagent states as the agent reports them (StateUpdate.state); anything newer is kept as sent.
const (
	SubagentRunning        = "running"
	SubagentIdle           = "idle"
	SubagentRequiresAction = "requires_action"
	SubagentUnknown        = "unknown"
)

// ErrNoSuchSubagent: the session has no child with that id. ErrSubagentNoCancel: the agent does
// not permit cancelling that child's work (its capabilities carry no cancel).
var (
	ErrNoSuchSubagent   = errors.New("no such subagent in this session")
	ErrSubagentNoCancel = errors.New("the agent does not let this subagent be cancelled")
)

// Subagent is a subagent entry's content (KindSubagent): a child as its parent announced it.
type Subagent struct {
	SessionID string `json:"sessionId"` // our id of the child: its events and its saved copy carry it
	ParentID  string `json:"parentId"`  // our id of the session that announced it
	// AgentSessionID is the agent's own id of the child, kept so that a continued session knows it.
	AgentSessionID string `json:"agentSessionId"`
	Title          string `json:"title,omitempty"`
	Description    string `json:"description,omitempty"`
	State          string `json:"state,omitempty"`      // Subagent*, or newer; "" not reported
	StopReason     string `json:"stopReason,omitempty"` // idle: why its work stopped, when reported
	Cancel         bool   `json:"cancel,omitempty"`     // the agent permits cancelling its work (CancelSubagent)
}

// subagent is one announced child. Guarded by Session.mu.
type subagent struct {
	info    Subagent
	depth   int    // 1: a child of the session
	entryID string // its entry in the parent's transcript
	host    *Transcript
	hostOut eventSink // the parent's transcript and events (the session's, or a child's)
	tr      *Transcript
	out     childStream
}

// eventSink is where a transcript's events go: the session's pump, or a child's stream in it.
type eventSink interface{ push(Event) }

// childStream is a child's events: numbered apart, delivered by the session's pump.
type childStream struct {
	p            *pump
	id, parentID string
}

func (c childStream) push(e Event) { c.p.pushChild(c.id, c.parentID, e) }

// subagentDesk is a session's children, by the agent's id and by ours. Guarded by Session.mu.
type subagentDesk struct {
	byAgent map[string]*subagent
	byID    map[string]*subagent
	told    bool // the notice of children refused was shown
}

// subagentFor returns the child the agent's session id names; nil when none was announced.
func (s *Session) subagentFor(agentSessionID string) *subagent {
	return s.subs.byAgent[agentSessionID]
}

// knownSessionLocked reports whether the agent's session id is this session's or a child's it
// announced; "" counts as the session's (older agents leave it out of fs/* requests).
func (s *Session) knownSessionLocked(id string) bool {
	return id == "" || id == s.agentSessionID || s.subs.byAgent[id] != nil
}

// refuseUnknownSession answers req -32602 when its params name a session id that is neither
// this session's nor an announced child's, and reports whether it did.
func (s *Session) refuseUnknownSession(req *jsonrpc.Request) bool {
	var p struct {
		SessionID string `json:"sessionId"`
	}
	_ = json.Unmarshal(req.Params, &p) // a malformed request is refused by its own decoder
	s.mu.Lock()
	known := s.agentSessionID == "" || s.knownSessionLocked(p.SessionID)
	s.unlock()
	if !known {
		req.Reply(nil, &jsonrpc.Error{Code: schema.CodeInvalidParams, Message: fmt.Sprintf("%s: unknown session %q", req.Method, cutText(p.SessionID, maxSubagentID))})
	}
	return !known
}

// subagentUpdateLocked applies a subagent_update sent on the session the agent's id host names
// (nil: the session itself): the first for a child id announces it, later ones patch it. One
// that does not decode stays an unknown entry of the host. The caller holds s.mu.
func (s *Session) subagentUpdateLocked(host *subagent, u schema.Update) {
	var w struct {
		SessionID    string          `json:"sessionId"`
		Title        json.RawMessage `json:"title"`
		Description  json.RawMessage `json:"description"`
		Capabilities json.RawMessage `json:"capabilities"`
		State        json.RawMessage `json:"state"`
	}
	tr, out := s.tr, eventSink(s.pump)
	if host != nil {
		tr, out = host.tr, host.out
	}
	if json.Unmarshal(u.Raw, &w) != nil || w.SessionID == "" || len(w.SessionID) > maxSubagentID || w.SessionID == s.agentSessionID {
		c := tr.unknown(u.Kind, u.Raw)
		out.push(changeEvent(c))
		return
	}
	child := s.subs.byAgent[w.SessionID]
	if child == nil {
		if child = s.announceLocked(host, w.SessionID); child == nil {
			return
		}
	}
	in := &child.info
	patchString(w.Title, &in.Title)
	patchString(w.Description, &in.Description)
	if len(w.Capabilities) > 0 {
		var caps struct {
			Cancel json.RawMessage `json:"cancel"`
		}
		_ = json.Unmarshal(w.Capabilities, &caps) // null or a wrong shape: no mutation permitted
		in.Cancel = len(caps.Cancel) > 0 && string(caps.Cancel) != "null"
	}
	if len(w.State) > 0 {
		var st struct {
			State      string `json:"state"`
			StopReason any    `json:"stopReason"`
		}
		_ = json.Unmarshal(w.State, &st)
		in.State, in.StopReason = displayText(st.State, 64), ""
		if r, ok := st.StopReason.(string); ok { // a malformed stop reason is not reported
			in.StopReason = displayText(r, 64)
		}
	}
	s.showSubagentLocked(child)
}

// announceLocked registers a new child of host (nil: of the session) and places its entry at the
// end of the host's transcript; nil when a bound refuses it (the first refusal is noted in the
// session's transcript). The caller holds s.mu.
func (s *Session) announceLocked(host *subagent, agentID string) *subagent {
	depth, parentID, tr, out := 1, s.cfg.ID, s.tr, eventSink(s.pump)
	if host != nil {
		depth, parentID, tr, out = host.depth+1, host.info.SessionID, host.tr, host.out
	}
	if len(s.subs.byID) >= MaxSubagents || depth > MaxSubagentDepth {
		s.cfg.Logf("%s: refused subagent %q: more than %d subagents or deeper than %d", s.cfg.AgentName, cutText(agentID, maxSubagentID), MaxSubagents, MaxSubagentDepth)
		if !s.subs.told {
			s.subs.told = true
			s.pushChange(s.tr.AddNotice(Notice{Severity: "warning", Title: "The agent started more subagents than agentdesk follows",
				Description: fmt.Sprintf("agentdesk shows at most %d subagents per session, at most %d levels deep; what the others do is not shown.", MaxSubagents, MaxSubagentDepth)}))
		}
		return nil
	}
	if s.subs.byAgent == nil {
		s.subs.byAgent, s.subs.byID = map[string]*subagent{}, map[string]*subagent{}
	}
	id := uuid.NewString()
	child := &subagent{depth: depth, host: tr, hostOut: out, tr: NewTranscript(),
		info: Subagent{SessionID: id, ParentID: parentID, AgentSessionID: displayText(agentID, maxSubagentID)}}
	child.out = childStream{p: s.pump, id: id, parentID: parentID}
	tr.open = ""
	child.entryID = tr.insert(&Entry{Kind: KindSubagent, Subagent: &Subagent{}}).ID
	s.subs.byAgent[agentID], s.subs.byID[id] = child, child
	return child
}

// showSubagentLocked publishes a child's current info: its entry in the host's transcript, and on
// its own stream its title (info) and state. The caller holds s.mu.
func (s *Session) showSubagentLocked(c *subagent) {
	e := c.host.entries[c.host.byID[c.entryID]]
	info := c.info
	e.Subagent = &info
	cp := e.clone()
	c.hostOut.push(Event{Kind: EventEntry, Entry: &cp})
	c.out.push(Event{Kind: EventInfo, Title: info.Title})
	c.out.push(Event{Kind: EventState, State: State(info.State), StopReason: info.StopReason})
}

// applySubagentUpdateLocked applies an update sent on a child session: another subagent_update
// announces or changes a grandchild; anything else goes into the child's own transcript, as a
// session's update goes into its own. The caller holds s.mu.
func (s *Session) applySubagentUpdateLocked(c *subagent, u schema.Update) {
	if u.Kind == UpdateSubagent {
		s.subagentUpdateLocked(c, u)
		return
	}
	if u.IsMetadata() {
		return // a child's commands and pickers are the agent's business: the person drives the parent
	}
	for _, ch := range c.tr.Apply(u) {
		c.out.push(changeEvent(ch))
	}
}

// CancelSubagent asks the agent to cancel the current work of child id (our id), with
// session/cancel naming the child: the parent and the other children run on, and the child's
// open permission requests are answered cancelled. It fails with ErrNoSuchSubagent, with
// ErrSubagentNoCancel when the agent did not permit it for that child, or when the agent is gone.
// It does not wait for the agent.
func (s *Session) CancelSubagent(id string) error {
	s.mu.Lock()
	c := s.subs.byID[id]
	conn := s.conn
	switch {
	case c == nil:
		s.unlock()
		return ErrNoSuchSubagent
	case !c.info.Cancel:
		s.unlock()
		return ErrSubagentNoCancel
	}
	agentID := c.info.AgentSessionID
	var reqs []*jsonrpc.Request
	for rid, p := range s.perms.open {
		if p.child == id {
			delete(s.perms.open, rid)
			reqs = append(reqs, p.req)
			s.decisionLocked(p, "cancelled", "", DecidedByCancel)
		}
	}
	s.unlock()
	replyCancelled(reqs)
	if conn == nil {
		return ErrNotRunning
	}
	return conn.Notify(schema.MethodSessionCancel, schema.CancelParams{SessionID: agentID})
}

// Subagents returns the children announced in this session, in no particular order.
func (s *Session) Subagents() []Subagent {
	s.mu.Lock()
	defer s.unlock()
	out := make([]Subagent, 0, len(s.subs.byID))
	for _, c := range s.subs.byID {
		out = append(out, c.info)
	}
	return out
}

// settleSubagents marks the cards of children that were working when their session was saved as
// of unknown state, without cancel: the agent process that ran them is gone, and a continued one
// announces its children anew (RestoreTranscript).
func settleSubagents(entries []*Entry) {
	for _, e := range entries {
		if e.Subagent == nil {
			continue
		}
		c := *e.Subagent
		if c.State == SubagentRunning || c.State == SubagentRequiresAction {
			c.State, c.StopReason = SubagentUnknown, ""
		}
		c.Cancel = false
		e.Subagent = &c
	}
}

// SubagentLine is a child in one line, as the command line and the Markdown export show it:
// its title ("Subagent" without one), then its state as the agent reported it and why its work
// stopped: "Explore: idle (cancelled)".
func SubagentLine(s *Subagent) string {
	line := s.Title
	if line == "" {
		line = "Subagent"
	}
	if s.State != "" {
		line += ": " + s.State
	}
	if s.StopReason != "" {
		line += " (" + s.StopReason + ")"
	}
	return line
}

// changeEvent is the event that announces c.
func changeEvent(c Change) Event {
	if c.Entry != nil {
		return Event{Kind: EventEntry, Entry: c.Entry}
	}
	return Event{Kind: EventChunk, EntryID: c.EntryID, Text: c.Text}
}

// patchString applies a nullable string patch: absent leaves v, null clears it, a string
// replaces it (shown: control and bidi characters removed, bounded).
func patchString(raw json.RawMessage, v *string) {
	if len(raw) == 0 {
		return
	}
	if bytes.Equal(raw, []byte("null")) {
		*v = ""
		return
	}
	var str string
	if json.Unmarshal(raw, &str) == nil {
		*v = displayText(str, maxSubagentText)
	}
}

// displayText is an agent's one-line text as agentdesk shows it: control characters and the
// bidirectional formatting characters (which can make text read as other text) removed, spaces
// trimmed, at most n bytes.
func displayText(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return ' '
		case unicode.IsControl(r), unicode.Is(unicode.Bidi_Control, r):
			return -1
		}
		return r
	}, s)
	return cutText(strings.TrimSpace(s), n)
}
