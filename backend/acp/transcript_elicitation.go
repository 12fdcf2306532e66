package acp

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"agentdesk/backend/acp/elicit"
)

// KindElicitation is a question the agent asked through elicitation/create: a form, or a
// URL to open. Its entry (id "elicitation-<requestId>") is upserted as it moves from open to
// how it ended; the UI's pending elicitations are the entries in state open.
const KindElicitation EntryKind = "elicitation"

// Elicitation modes (Elicitation.Mode).
const (
	ElicitModeForm = "form"
	ElicitModeURL  = "url"
)

// Elicitation states (Elicitation.State).
const (
	ElicitOpen      = "open"      // waiting for an answer
	ElicitAccepted  = "accepted"  // answered accept (form: with Answer; url: the person agreed to open it)
	ElicitDeclined  = "declined"  // answered decline
	ElicitCancelled = "cancelled" // answered cancel: the person, Stop, the end of the turn or the agent's exit
	ElicitCompleted = "completed" // url: the agent said it is complete (elicitation/complete)
	ElicitInvalid   = "invalid"   // refused with -32602: Error says why
)

// Who answered an elicitation (Elicitation.AnsweredBy).
const (
	AnsweredByUser     = "user"     // a person, in the window
	AnsweredByCancel   = "cancel"   // Stop, the end of the turn, the agent's exit
	AnsweredByAgent    = "agent"    // the agent withdrew it ($/cancel_request) or completed it
	AnsweredByTerminal = "terminal" // a person, on the CLI's terminal
	AnsweredByPolicy   = "policy"   // the CLI declined by itself (not asking)
)

// Elicitation is an elicitation entry's content (KindElicitation). Its JSON shape is part of
// the contract with the frontend (protocol.ts). Answer never holds a secret field's value:
// those read elicit.SecretMask.
type Elicitation struct {
	RequestID string          `json:"requestId"` // the JSON-RPC id as text (a string id keeps its quotes)
	Mode      string          `json:"mode"`      // ElicitMode*
	Message   string          `json:"message"`
	Schema    json.RawMessage `json:"schema,omitempty"` // form: requestedSchema as sent (kept; the window reads Fields)
	// Fields is a valid form's schema as elicit.Parse read it, in the agent's order: what the
	// window renders and checks each value against. Absent for a url, an invalid form, or a
	// form without fields.
	Fields        []elicit.Field `json:"fields,omitempty"`
	URL           string         `json:"url,omitempty"`
	Host          string         `json:"host,omitempty"` // url: the host, IDNs as punycode
	ElicitationID string         `json:"elicitationId,omitempty"`
	State         string         `json:"state"` // Elicit*
	Error         string         `json:"error,omitempty"`
	Answer        map[string]any `json:"answer,omitempty"`
	AnsweredBy    string         `json:"answeredBy,omitempty"` // AnsweredBy*
}

// maxElicitMessage bounds an elicitation's message as kept: a question, not a transcript.
const maxElicitMessage = 16 << 10

// AddElicitation appends the entry of a new elicitation to the current turn. Its id is
// "elicitation-<requestId>"; a restarted agent that reuses a request id gets "-2", "-3"… after.
func (t *Transcript) AddElicitation(el Elicitation) Change {
	t.open = ""
	el.Message = cutText(el.Message, maxElicitMessage)
	id := "elicitation-" + el.RequestID
	for n := 2; ; n++ {
		if _, taken := t.byID[id]; !taken {
			break
		}
		id = fmt.Sprintf("elicitation-%s-%d", el.RequestID, n)
	}
	e := &Entry{ID: id, Kind: KindElicitation, Turn: t.turn, Elicitation: &el}
	t.byID[id] = len(t.entries)
	t.entries = append(t.entries, e)
	c := e.clone()
	return Change{Entry: &c}
}

// SetElicitation changes the elicitation of entry id with f and returns the upsert; ok is
// false when there is no such elicitation entry.
func (t *Transcript) SetElicitation(id string, f func(*Elicitation)) (Change, bool) {
	i, ok := t.byID[id]
	if !ok || t.entries[i].Elicitation == nil {
		return Change{}, false
	}
	f(t.entries[i].Elicitation)
	c := t.entries[i].clone()
	return Change{Entry: &c}, true
}

// settleElicitations marks every elicitation still open as cancelled: a saved session's
// questions cannot be answered once its agent is gone (RestoreTranscript). It gives each the
// fields of its form (SavedElicitationFields).
func settleElicitations(entries []*Entry) {
	for _, e := range entries {
		el := e.Elicitation
		if el == nil {
			continue
		}
		c := *el
		if c.State == ElicitOpen {
			c.State, c.AnsweredBy = ElicitCancelled, AnsweredByCancel
		}
		e.Elicitation = &c
		SavedElicitationFields(e)
	}
}

// SavedElicitationFields gives a saved form elicitation entry that has a schema but no Fields
// (saved before entries carried them) the fields of its schema, so that the window renders
// every form from Fields alone. A schema was valid when it was asked, so it parses again; one
// that does not is left without fields. e's elicitation is changed in place: the caller owns it.
func SavedElicitationFields(e *Entry) {
	el := e.Elicitation
	if el == nil || el.Fields != nil || len(el.Schema) == 0 || el.State == ElicitInvalid {
		return
	}
	if s, err := elicit.Parse(el.Schema); err == nil {
		el.Fields = s.Fields
	}
}

func (el *Elicitation) clone() *Elicitation {
	c := *el
	if el.Answer != nil {
		c.Answer = make(map[string]any, len(el.Answer))
		for k, v := range el.Answer {
			c.Answer[k] = v
		}
	}
	return &c
}

// ElicitationStateLine says how an elicitation stands, in words (exports, the CLI):
// "accepted by the user", "cancelled (Stop, the end of the turn or the agent's exit)",
// "accepted by the user, then completed by the agent", "refused: …".
func ElicitationStateLine(el *Elicitation) string {
	switch el.State {
	case ElicitOpen:
		return "waiting for an answer"
	case ElicitInvalid:
		return "refused: " + el.Error
	}
	by := map[string]string{AnsweredByUser: "by the user", AnsweredByTerminal: "by the user on the terminal",
		AnsweredByPolicy: "by agentdesk (not asking)", AnsweredByAgent: "by the agent",
		AnsweredByCancel: "(Stop, the end of the turn or the agent's exit)"}[el.AnsweredBy]
	if el.State == ElicitCompleted && el.AnsweredBy != AnsweredByAgent {
		return strings.TrimSpace(ElicitAccepted+" "+by) + ", then completed by the agent"
	}
	if el.State == ElicitCompleted {
		return "completed by the agent before it was answered"
	}
	return strings.TrimSpace(el.State + " " + by)
}

// ElicitationAnswerLines are an accepted form's answer as "name: value" lines, sorted by name
// (secrets already read elicit.SecretMask).
func ElicitationAnswerLines(el *Elicitation) []string {
	names := make([]string, 0, len(el.Answer))
	for k := range el.Answer {
		names = append(names, k)
	}
	sort.Strings(names)
	out := make([]string, 0, len(names))
	for _, k := range names {
		v := el.Answer[k]
		text, ok := v.(string)
		if !ok {
			b, _ := json.Marshal(v)
			text = string(b)
		}
		out = append(out, k+": "+text)
	}
	return out
}

// elicitationMarkdown renders an elicitation entry for exports.
func elicitationMarkdown(b *strings.Builder, el *Elicitation) {
	fmt.Fprintf(b, "## Agent asked (%s) [%s]\n\n%s\n", el.Mode, ElicitationStateLine(el), quote(el.Message))
	if el.URL != "" {
		fmt.Fprintf(b, "\nURL: <%s> (host %s)\n", el.URL, el.Host)
	}
	if lines := ElicitationAnswerLines(el); len(lines) > 0 {
		b.WriteString("\nAnswer:\n\n")
		for _, l := range lines {
			fmt.Fprintf(b, "- %s\n", oneLine(l))
		}
	}
}
