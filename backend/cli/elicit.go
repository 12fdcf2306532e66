package cli

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/elicit"
)

// elicitModes are the elicitation modes run advertises: a form only when it asks on the
// terminal (--permissions ask); a link always, since it can be printed (and, without asking,
// declined saying so).
func elicitModes(policy string) acp.ElicitModes {
	return acp.ElicitModes{Form: policy == "ask", URL: true}
}

// errNoTerminal: stdin ended while a question was being asked.
var errNoTerminal = errors.New("there is no terminal to answer on (stdin is closed)")

// elicitAsker asks the agent's questions (elicitations) on the terminal, one at a time (two
// questions must not read the same stdin at once), or declines them when it may not ask.
type elicitAsker struct {
	sess   *acp.Session
	ask    bool // --permissions ask
	in     lineReader
	stdout *printer
	mu     sync.Mutex // one question on the terminal at a time
}

// answer answers one open elicitation; it waits for the person (no timeout: Stop still cancels
// the request, and the answer then fails as not open, which is said).
func (a *elicitAsker) answer(el acp.Elicitation) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.ask {
		a.decline(el, "agentdesk run answers without asking (--permissions allow or reject); run with --permissions ask to answer")
		return
	}
	var err error
	if el.Mode == acp.ElicitModeURL {
		err = a.url(el)
	} else {
		err = a.form(el)
	}
	if errors.Is(err, errInterrupted) {
		return // the Ctrl-C stops the turn, which cancels the question
	} else if errors.Is(err, errNoTerminal) {
		a.decline(el, err.Error())
	} else if err != nil {
		a.stdout.printf("[question] %v\n", err)
	}
}

// decline answers decline by policy, saying why.
func (a *elicitAsker) decline(el acp.Elicitation, why string) {
	if err := a.sess.AnswerElicitationAs(el.RequestID, acp.ElicitDecline, nil, acp.AnsweredByPolicy); err == nil {
		a.stdout.printf("[question] declined: %s\n", why)
	}
}

// url prints the link and asks whether the person will open it: yes accepts (they open it
// themselves), anything else declines.
func (a *elicitAsker) url(el acp.Elicitation) error {
	line, err := a.line(fmt.Sprintf("Open %s (host %s) in your browser? [y/N] ", el.URL, el.Host))
	if err != nil {
		return err
	}
	action := acp.ElicitDecline
	if yes(line) {
		action = acp.ElicitAccept
	}
	return a.sess.AnswerElicitationAs(el.RequestID, action, nil, acp.AnsweredByTerminal)
}

// form asks whether to answer, then each field in the agent's order, re-asking a field until
// its value fits; an empty line takes the default (or leaves an optional field out).
func (a *elicitAsker) form(el acp.Elicitation) error {
	schema, err := elicit.Parse(el.Schema)
	if err != nil {
		return err // cannot happen: the session accepted it
	}
	line, err := a.line("Answer the agent's questions? [Y/n] ")
	if err != nil {
		return err
	}
	if s := strings.ToLower(strings.TrimSpace(line)); s == "n" || s == "no" {
		return a.sess.AnswerElicitationAs(el.RequestID, acp.ElicitDecline, nil, acp.AnsweredByTerminal)
	}
	content := map[string]any{}
	for i := range schema.Fields {
		f := &schema.Fields[i]
		v, err := a.field(f)
		if err != nil {
			return err
		}
		if v != nil {
			content[f.Name] = v
		}
	}
	return a.sess.AnswerElicitationAs(el.RequestID, acp.ElicitAccept, content, acp.AnsweredByTerminal)
}

// field asks one field until its answer fits; nil is no value (an optional field left empty).
func (a *elicitAsker) field(f *elicit.Field) (any, error) {
	for {
		line, err := a.line(fieldPrompt(f))
		if err != nil {
			return nil, err
		}
		text := strings.TrimSpace(line)
		var v any
		switch {
		case text == "" && f.DefaultValue() != nil:
			v = f.DefaultValue()
		case text == "" && !f.Required:
			return nil, nil
		case text == "":
			a.stdout.printf("  an answer is required\n")
			continue
		default:
			if v, err = parseAnswer(f, text); err != nil {
				a.stdout.printf("  %v\n", err)
				continue
			}
		}
		if v, err = f.Check(v); err != nil {
			a.stdout.printf("  %v\n", err)
			continue
		}
		return v, nil
	}
}

// fieldPrompt is one field's question: its title, description, choices, default, and whether
// a secret will echo (the CLI has no way to read without echo).
func fieldPrompt(f *elicit.Field) string {
	var b strings.Builder
	title := f.Title
	if title == "" {
		title = f.Name
	}
	b.WriteString(title)
	if f.Description != "" {
		fmt.Fprintf(&b, " (%s)", f.Description)
	}
	if len(f.Choices) > 0 {
		b.WriteString(" choices:")
		for i, c := range f.Choices {
			fmt.Fprintf(&b, " [%d] %s", i+1, c.Title)
		}
		if f.Type == elicit.FieldArray {
			b.WriteString(" (numbers separated by commas)")
		}
	}
	switch f.Type {
	case elicit.FieldBoolean:
		b.WriteString(" [y/n]")
	case elicit.FieldNumber, elicit.FieldInteger:
		fmt.Fprintf(&b, " [%s]", f.Type)
	}
	if d := f.DefaultValue(); d != nil {
		fmt.Fprintf(&b, " (default %v)", d)
	}
	switch {
	case f.Required:
		b.WriteString(" (required)")
	default:
		b.WriteString(" (optional)")
	}
	if f.Secret {
		b.WriteString(" (secret: what you type is shown here, but never saved)")
	}
	b.WriteString(": ")
	return b.String()
}

// parseAnswer reads a typed line as a value of f's type: a choice by number or value, y/n, a
// number, a comma-separated list of choices.
func parseAnswer(f *elicit.Field, text string) (any, error) {
	switch f.Type {
	case elicit.FieldBoolean:
		switch strings.ToLower(text) {
		case "y", "yes", "true":
			return true, nil
		case "n", "no", "false":
			return false, nil
		}
		return nil, errors.New("answer y or n")
	case elicit.FieldNumber, elicit.FieldInteger:
		n, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return nil, errors.New("answer a number")
		}
		return n, nil
	case elicit.FieldArray:
		var out []any
		for _, part := range strings.Split(text, ",") {
			out = append(out, choice(f, strings.TrimSpace(part)))
		}
		return out, nil
	}
	if len(f.Choices) > 0 {
		return choice(f, text), nil
	}
	return text, nil
}

// choice maps a choice's number to its value; anything else is taken as the value itself.
func choice(f *elicit.Field, text string) string {
	if n, err := strconv.Atoi(text); err == nil && n >= 1 && n <= len(f.Choices) {
		return f.Choices[n-1].Value
	}
	return text
}

// line asks prompt and reads one line; errNoTerminal when stdin has ended without one,
// errInterrupted after a Ctrl-C.
func (a *elicitAsker) line(prompt string) (string, error) {
	line, err := a.in.readLine(prompt)
	if errors.Is(err, errInterrupted) {
		return "", err
	}
	if err != nil && line == "" {
		return "", errNoTerminal
	}
	return line, nil
}

func yes(line string) bool {
	s := strings.ToLower(strings.TrimSpace(line))
	return s == "y" || s == "yes"
}
