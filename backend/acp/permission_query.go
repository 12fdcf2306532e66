package acp

import (
	"encoding/json"
	"strings"
)

// rawPathKeys are the raw-input fields agents name a file in (Claude Code's file_path and
// notebook_path, Gemini's absolute_path, others' path and paths).
var rawPathKeys = []string{"path", "file_path", "filePath", "abs_path", "absolute_path", "notebook_path",
	"source", "destination", "old_path", "new_path"}

// permissionQuery is what the tool card e and the request's options ask of the rules. The
// command is the raw input's whole command line — never the card's title, never cut short: a
// rule must see every word it would allow.
func permissionQuery(e *Entry, options []OptionSummary) PermissionQuery {
	q := PermissionQuery{Kind: e.ToolKind, Title: e.Title, Options: options}
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
	var in map[string]json.RawMessage
	if len(e.RawInput) == 0 || json.Unmarshal(e.RawInput, &in) != nil {
		return q
	}
	for _, k := range append(rawPathKeys, "paths") {
		var one string
		var many []string
		switch {
		case json.Unmarshal(in[k], &one) == nil:
			addPath(one)
		case json.Unmarshal(in[k], &many) == nil:
			for _, p := range many {
				addPath(p)
			}
		}
	}
	if e.ToolKind == "execute" {
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
				words[i] = shellQuote(w)
			}
			return strings.Join(words, " ")
		}
	}
	return ""
}
