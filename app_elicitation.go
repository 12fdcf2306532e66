package main

import (
	"context"
	"errors"
	"fmt"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/elicit"
)

// windowElicitModes are the elicitation modes the window's sessions advertise: it renders
// forms and asks before it opens a URL in the system browser.
var windowElicitModes = acp.ElicitAll()

// urlOpener opens a URL in the system's browser (runtime.BrowserOpenURL), never in the webview.
type urlOpener func(ctx context.Context, url string)

// AnswerElicitation answers the open elicitation requestID of sessionID (its entry's
// elicitation.requestId) with action "accept", "decline" or "cancel". A form's accept carries
// the values by field name; they are checked against the agent's schema, and a refusal names
// the field. A url's accept means the person agreed to open it (content is ignored). It
// returns once the answer is sent; the entry's upsert follows as a session event.
func (ss *Sessions) AnswerElicitation(sessionID, requestID, action string, content map[string]any) error {
	return ss.onLive(sessionID, func(s *acp.Session) error {
		return elicitationForWindow(s.AnswerElicitation(requestID, action, content))
	})
}

// OpenElicitationURL opens the URL of the url-mode elicitation requestID of sessionID in the
// system browser. The URL is the one the agent sent, read from the session while the request
// is open or accepted (the page never supplies it); it does not answer the request: the page
// answers accept with AnswerElicitation, before or after.
func (ss *Sessions) OpenElicitationURL(sessionID, requestID string) error {
	return ss.onLive(sessionID, func(s *acp.Session) error {
		url, err := s.ElicitationURL(requestID)
		if err != nil {
			return elicitationForWindow(err)
		}
		if ss.openURL == nil {
			return errors.New("this build cannot open a browser")
		}
		ss.openURL(ss.ctx, url)
		return nil
	})
}

// elicitationForWindow words an elicitation error for the person who answered.
func elicitationForWindow(err error) error {
	var field *elicit.FieldError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, acp.ErrElicitationNotOpen):
		return &windowError{text: "this question is no longer open (it was answered, cancelled or closed by the agent)", err: err}
	case errors.As(err, &field):
		return &windowError{text: fmt.Sprintf("check the form: %s", field.Error()), err: err}
	case errors.Is(err, acp.ErrElicitationNotURL):
		return &windowError{text: "this question has no link to open", err: err}
	}
	return forWindow(err)
}
