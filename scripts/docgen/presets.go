package main

import (
	"fmt"
	"strings"

	"agentdesk/backend/agents"
)

// presetTable is the presets and what each runs (backend/agents presets.go, the one place a pin
// is written): its npm package at the version this build pins, or its own command only. It is
// read from the compiled table, not from root's sources, so it always matches this binary.
func presetTable(string) (string, error) {
	var b strings.Builder
	b.WriteString("| id | agent | npm package (pinned) | runs | own command (when chosen in its override) |\n|---|---|---|---|---|\n")
	for _, p := range agents.Presets() {
		pkg, runs := "—", "its own command, found on PATH"
		if p.Package != "" {
			pkg = fmt.Sprintf("`%s@%s`", p.Package, p.Version)
			runs = strings.TrimSpace(fmt.Sprintf("`%s %s`", p.Bin, strings.Join(p.PackageArgs, " ")))
			runs = strings.Replace(runs, " `", "`", 1) + " from agentdesk's install"
		}
		own := strings.TrimSpace(p.Command + " " + strings.Join(p.Args, " "))
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | `%s` |\n", p.ID, p.Name, pkg, runs, own)
	}
	return b.String(), nil
}
