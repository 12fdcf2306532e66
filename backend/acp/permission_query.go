package acp

import (
	"encoding/json"
	"strings"

	"agentdesk/backend/acp/terminal"
)

// permissionQuery is what the tool card e and the request's options ask of the rules: every
// path the card names — its locations and its diffs' paths —, everything else it carries that
// may name one, as the agent sent it (its raw input, content that is neither text nor a diff),
// for the rules to search, and an execute call's command. The command is the raw input's whole
// command line — never the card's title, never cut short: a rule must see every word it would
// allow.
func permissionQuery(e *Entry, options []OptionSummary) PermissionQuery {
	q := PermissionQuery{Kind: e.ToolKind, Title: e.Title, Name: e.ToolName, Options: options}
	seen := map[string]bool{}
	addPath := func(p string) {
		if p = strings.TrimSpace(p); p != "" && !seen[p] {
			seen[p] = true
			q.Paths = append(q.Paths, p)
		}
	}
	for _, l := range e.Locations {
		addPath(l.Path)
	}
	for _, c := range e.Content {
		if c.Type == "diff" {
			addPath(c.Path)
		}
		if len(c.Raw) > 0 {
			q.Input = append(q.Input, c.Raw)
		}
	}
	if len(e.RawInput) == 0 {
		return q
	}
	q.Input = append(q.Input, e.RawInput)
	var in map[string]json.RawMessage
	if e.ToolKind == "execute" && json.Unmarshal(e.RawInput, &in) == nil {
		q.Command = rawCommand(in)
	}
	return q
}

// rawCommand is the command line of an execute call's raw input: its command or cmd, a string
// or a list of words (shell-quoted and joined), "" when it has neither.
func rawCommand(in map[string]json.RawMessage) string {
	for _, k := range []string{"command", "cmd"} {
		var line string
		if json.Unmarshal(in[k], &line) == nil && strings.TrimSpace(line) != "" {
			return line
		}
		var words []string
		if json.Unmarshal(in[k], &words) == nil && len(words) > 0 {
			for i, w := range words {
				words[i] = terminal.ShellQuote(w)
			}
			return strings.Join(words, " ")
		}
	}
	return ""
}
