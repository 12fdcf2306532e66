package rules

import (
	"path/filepath"
	"strings"
)

// kindWords names the calls of each ACP tool kind, as a rule's words say them.
var kindWords = map[string]string{
	"read": "reads", "edit": "edits", "delete": "deletions", "move": "moves", "search": "searches",
	"execute": "commands", "think": "thinking", "fetch": "fetches", "switch_mode": "mode switches",
	"other": "other tool calls",
}

// Describe says in words what r matches, as the window, the CLI and the audit log show it:
// "reads in ~/src/app for Claude Code", "commands starting `go test` in ~/src/app for Claude
// Code", "edits of src/** in any project for any agent". agentName is the agent's name for
// r.AgentID ("" to show the id); home, when set, is shown as ~. The decision is not in it.
func Describe(r Rule, agentName, home string) string {
	subject := "every tool call"
	if r.Command != "" {
		subject = "commands" // only execute calls have a command line
	}
	if r.Kind != "" {
		subject = kindWords[r.Kind]
		if subject == "" {
			subject = r.Kind + " calls"
		}
	}
	var b strings.Builder
	b.WriteString(subject)
	if r.Tool != "" {
		b.WriteString(" by “" + r.Tool + "”")
	}
	if r.Command != "" {
		b.WriteString(" starting `" + r.Command + "`")
	}
	if r.Path != "" {
		b.WriteString(" of " + r.Path)
	}
	if r.Folder != "" {
		b.WriteString(" in " + Home(r.Folder, home))
	} else {
		b.WriteString(" in any project")
	}
	switch {
	case r.AgentID == "":
		b.WriteString(" for any agent")
	case agentName != "":
		b.WriteString(" for " + agentName)
	default:
		b.WriteString(" for agent " + r.AgentID)
	}
	return b.String()
}

// Home shows dir with the home folder as ~ ("/home/ana/src/app" → "~/src/app").
func Home(dir, home string) string {
	home = filepath.Clean(home)
	if home == "" || home == "." || home == "/" {
		return dir
	}
	if dir == home {
		return "~"
	}
	if strings.HasPrefix(dir, home+string(filepath.Separator)) {
		return "~" + dir[len(home):]
	}
	return dir
}
