package acp

import (
	"encoding/json"
	"errors"
	"fmt"

	"agentdesk/backend/acp/schema"
)

// Elicitation methods (stable since ACP schema 1.21): the agent asks the person through the
// client, with a form or a URL to open.
const (
	MethodElicitationCreate   = "elicitation/create"   // agent → client request
	MethodElicitationComplete = "elicitation/complete" // agent → client notification: a url elicitation is done
)

// Elicitation actions: how the client answers elicitation/create.
const (
	ElicitAccept  = "accept"
	ElicitDecline = "decline"
	ElicitCancel  = "cancel"
)

// ElicitModes says which elicitation modes a session advertises and serves (Config.Elicit):
// only those its front end can put to a person. A request in another mode is refused -32602.
type ElicitModes struct {
	Form bool
	URL  bool
}

// ElicitAll enables both modes (the app, which renders both).
func ElicitAll() ElicitModes { return ElicitModes{Form: true, URL: true} }

func (m ElicitModes) allows(mode string) bool {
	return (mode == ElicitModeForm && m.Form) || (mode == ElicitModeURL && m.URL)
}

// caps is the clientCapabilities.elicitation object: nil (absent) when no mode is enabled.
func (m ElicitModes) caps() *schema.ElicitationCaps {
	if !m.Form && !m.URL {
		return nil
	}
	c := &schema.ElicitationCaps{}
	if m.Form {
		c.Form = &struct{}{}
	}
	if m.URL {
		c.URL = &struct{}{}
	}
	return c
}

// ElicitationCreateParams are elicitation/create's params, both modes in one: a form carries
// RequestedSchema, a url URL and ElicitationID. SessionID is absent for a request-scoped one.
type ElicitationCreateParams struct {
	SessionID       string          `json:"sessionId,omitempty"`
	ToolCallID      string          `json:"toolCallId,omitempty"`
	Mode            string          `json:"mode"`
	Message         string          `json:"message"`
	RequestedSchema json.RawMessage `json:"requestedSchema,omitempty"`
	URL             string          `json:"url,omitempty"`
	ElicitationID   string          `json:"elicitationId,omitempty"`
}

// ElicitationResult is the answer to elicitation/create. Content only with accept in form mode.
type ElicitationResult struct {
	Action  string         `json:"action"`
	Content map[string]any `json:"content,omitempty"`
}

// ElicitationCompleteParams are elicitation/complete's params.
type ElicitationCompleteParams struct {
	ElicitationID string `json:"elicitationId"`
}

// Why an answer to an elicitation was refused (ElicitationError.Err).
var (
	// ErrElicitationNotOpen: no open elicitation has that request id (answered, cancelled,
	// completed, refused as invalid, or never asked).
	ErrElicitationNotOpen = errors.New("the elicitation is not open")
	// ErrElicitationAction: the action is not accept, decline or cancel.
	ErrElicitationAction = errors.New("unknown elicitation action")
	// ErrElicitationContent: a form's answer does not fit its schema (Cause is the *elicit.FieldError).
	ErrElicitationContent = errors.New("the answer does not fit the form")
	// ErrElicitationNotURL: ElicitationURL on a form elicitation.
	ErrElicitationNotURL = errors.New("the elicitation has no URL to open")
)

// ElicitationError is a refused AnswerElicitationAs or ElicitationURL: Err is one of the
// sentinels above; Cause, with ErrElicitationContent, the *elicit.FieldError at fault.
type ElicitationError struct {
	RequestID string
	Action    string // with ErrElicitationAction: the action given
	Err       error
	Cause     error
}

var _ error = (*ElicitationError)(nil)

// Error names the request and what was wrong.
func (e *ElicitationError) Error() string {
	switch {
	case e.Err == ErrElicitationAction:
		return fmt.Sprintf("elicitation %s: action %q is not accept, decline or cancel", e.RequestID, e.Action)
	case e.Cause != nil:
		return fmt.Sprintf("elicitation %s: %v: %v", e.RequestID, e.Err, e.Cause)
	}
	return fmt.Sprintf("elicitation %s: %v", e.RequestID, e.Err)
}

// Unwrap returns the sentinel and the cause, so errors.Is and errors.As reach both.
func (e *ElicitationError) Unwrap() []error {
	if e.Cause != nil {
		return []error{e.Err, e.Cause}
	}
	return []error{e.Err}
}
