package cli

import (
	"fmt"
	"strings"

	"agentdesk/backend/acp/receipt"
)

// receiptLines is what `run` prints of a turn's receipt just before its stop reason (which stays
// the last line): one summary line (time, waiting on the person, tokens, cost, commands), then
// one line per changed file, at most receiptFilesShown of them; `agentdesk changes` shows the rest
// and their diffs. Nothing for a turn without a receipt.
func receiptLines(r *receipt.Receipt) []string {
	if r == nil {
		return nil
	}
	head := []string{fmt.Sprintf("%.1f s", float64(r.WallMs)/1000)}
	if r.WaitMs > 0 {
		head = append(head, fmt.Sprintf("%.1f s waiting on you", float64(r.WaitMs)/1000))
	}
	if t := r.Tokens; t != nil {
		head = append(head, fmt.Sprintf("%d tokens (%d in, %d out)", t.Total, t.Input, t.Output))
	}
	if c := r.Cost; c != nil {
		head = append(head, "cost "+receipt.CostText(*c))
	}
	if n := len(r.Commands) + r.MoreCommands; n > 0 {
		failed := 0
		for _, c := range r.Commands {
			if (c.ExitCode != nil && *c.ExitCode != 0) || c.Signal != "" {
				failed++
			}
		}
		cmd := fmt.Sprintf("%d command%s", n, plural(n))
		if failed > 0 {
			cmd += fmt.Sprintf(" (%d failed)", failed)
		}
		head = append(head, cmd)
	}
	ch := r.Changes
	switch {
	case ch == nil:
	case ch.Error != "":
		head = append(head, "files changed: not recorded ("+ch.Error+")")
	default:
		n := len(ch.Files) + ch.More
		head = append(head, fmt.Sprintf("%d file%s changed", n, plural(n)))
	}
	lines := []string{"[receipt] " + strings.Join(head, "; ")}
	if ch == nil || ch.Error != "" {
		return lines
	}
	for i, f := range ch.Files {
		if i == receiptFilesShown {
			lines = append(lines, fmt.Sprintf("  and %d more (agentdesk changes shows them all)", len(ch.Files)-i+ch.More))
			return lines
		}
		line := fmt.Sprintf("  %-8s %s", f.Change, safeLine(f.Path)) // a name cannot forge a line
		if f.From != "" {
			line += " (from " + safeLine(f.From) + ")"
		}
		switch {
		case f.TooBig:
			line += "  too big to keep"
		case f.Binary:
			line += "  binary"
		default:
			line += fmt.Sprintf("  +%d -%d", f.Added, f.Removed)
		}
		lines = append(lines, line)
	}
	if ch.More > 0 {
		lines = append(lines, fmt.Sprintf("  and %d more (agentdesk changes shows them all)", ch.More))
	}
	for _, n := range ch.Notes {
		lines = append(lines, "  note: "+n)
	}
	return lines
}

// receiptFilesShown is how many changed files `run` lists under a turn's receipt.
const receiptFilesShown = 20

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
