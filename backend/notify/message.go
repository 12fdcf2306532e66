package notify

import (
	"fmt"
	"strings"
	"unicode"
)

// Kind is what a notification asks the user to look at.
type Kind string

const (
	// Permission: an agent waits for the user's decision on a tool call.
	Permission Kind = "permission"
	// Finished: an agent's turn ended (or the agent stopped) while the user looked elsewhere.
	Finished Kind = "finished"
)

// Valid reports whether k is one of the kinds above.
func (k Kind) Valid() bool { return k == Permission || k == Finished }

// Message is one reason to get the user's attention. Agent and Title are plain text, usually
// from the agent (untrusted): the Notifier flattens them to one line, shortens them and escapes
// markup where the server would render it.
type Message struct {
	Session string // agentdesk's session id: one notification per session, updated in place
	Kind    Kind
	Agent   string // the agent's display name, e.g. "Claude Code"
	Title   string // a permission: the tool call's title; finished: the session's title
}

// maxField is how many characters of an agent name or a title a notification shows.
const maxField = 160

// text is what a session's notification says.
type text struct {
	summary string // plain text (the spec allows no markup here)
	body    string // plain text; escaped for servers that render markup, when sent
}

// render says what the notification of a session shows after m, given how many permissions
// are waiting (m counted) since the user last looked.
func render(m Message, waiting int) text {
	body := oneLine(m.Title, maxField)
	if agent := oneLine(m.Agent, maxField); agent != "" {
		if body == "" {
			body = agent
		} else {
			body = agent + ": " + body
		}
	}
	switch {
	case m.Kind == Finished:
		return text{summary: "Agent finished", body: body}
	case waiting > 1:
		return text{summary: fmt.Sprintf("%d permissions waiting", waiting), body: body}
	default:
		return text{summary: "Permission needed", body: body}
	}
}

// oneLine collapses every run of whitespace and control characters into one space, trims, and
// cuts s to at most max characters (ending with "…" when cut).
func oneLine(s string, max int) string {
	fields := strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) })
	out := []rune(strings.Join(fields, " "))
	if len(out) > max {
		return string(out[:max-1]) + "…"
	}
	return string(out)
}

// escapeMarkup makes s show as itself on a server that renders the body markup subset of the
// Desktop Notifications spec (<b>, <i>, <u>, <a href>, <img>: XML-like, so &, < and > are special).
func escapeMarkup(s string) string {
	return markupEscaper.Replace(s)
}

var markupEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
