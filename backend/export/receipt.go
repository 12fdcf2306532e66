package export

import (
	"fmt"
	"strings"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/receipt"
)

// receiptMarkdown is the "Receipt" block under a turn's end: its time (and the time spent
// waiting on the person), tokens and cost on one line, then the files it changed with their
// line counts, the commands it ran with their exit codes, its decisions and its questions.
// "" when the turn has no receipt (saved before receipts existed).
func receiptMarkdown(r *receipt.Receipt) string {
	if r == nil {
		return ""
	}
	var b strings.Builder
	head := []string{durationWords(r.WallMs)}
	if r.WaitMs > 0 {
		head[0] += fmt.Sprintf(" (%s waiting on you)", durationWords(r.WaitMs))
	}
	if t := r.Tokens; t != nil {
		head = append(head, fmt.Sprintf("%d tokens (%d in, %d out)", t.Total, t.Input, t.Output))
	}
	if c := r.Cost; c != nil {
		head = append(head, "cost "+receipt.CostText(*c))
	}
	fmt.Fprintf(&b, "**Receipt**: %s\n\n", strings.Join(head, "; "))
	if ch := r.Changes; ch != nil {
		switch {
		case ch.Error != "":
			fmt.Fprintf(&b, "- Files changed: not recorded (%s)\n", oneLine(ch.Error))
		default:
			fmt.Fprintf(&b, "- Files changed: %d\n", len(ch.Files)+ch.More)
			for _, f := range ch.Files {
				line := fmt.Sprintf("  - %s %s", f.Change, code(f.Path))
				if f.From != "" {
					line += " from " + code(f.From)
				}
				switch {
				case f.TooBig:
					line += " (too big to keep)"
				case f.Binary:
					line += " (binary)"
				default:
					line += fmt.Sprintf(" (+%d −%d)", f.Added, f.Removed)
				}
				b.WriteString(line + "\n")
			}
			if ch.More > 0 {
				fmt.Fprintf(&b, "  - and %d more\n", ch.More)
			}
		}
		for _, n := range ch.Notes {
			fmt.Fprintf(&b, "  - note: %s\n", oneLine(n))
		}
	}
	if n := len(r.Commands) + r.MoreCommands; n > 0 {
		fmt.Fprintf(&b, "- Commands: %d\n", n)
		for _, c := range r.Commands {
			line := "  - " + code(c.Command)
			switch {
			case c.Signal != "":
				line += " → " + c.Signal
			case c.ExitCode != nil:
				line += fmt.Sprintf(" → exit %d", *c.ExitCode)
			}
			b.WriteString(line + "\n")
		}
		if r.MoreCommands > 0 {
			fmt.Fprintf(&b, "  - and %d more\n", r.MoreCommands)
		}
	}
	if n := len(r.Decisions) + r.MoreDecisions; n > 0 {
		fmt.Fprintf(&b, "- Decisions: %d\n", n)
		for _, d := range r.Decisions {
			words := decisionWords(acp.DecisionSummary{Outcome: d.Outcome, OptionName: d.Option, OptionKind: d.Kind, DecidedBy: d.DecidedBy, RuleLabel: d.Rule})
			fmt.Fprintf(&b, "  - %s: %s\n", oneLine(d.Title), words)
		}
		if r.MoreDecisions > 0 {
			fmt.Fprintf(&b, "  - and %d more\n", r.MoreDecisions)
		}
	}
	if n := len(r.Questions) + r.MoreQuestions; n > 0 {
		fmt.Fprintf(&b, "- Questions: %d\n", n)
		for _, q := range r.Questions {
			fmt.Fprintf(&b, "  - %s (%s): %s\n", oneLine(q.Message), q.Mode, q.State)
		}
		if r.MoreQuestions > 0 {
			fmt.Fprintf(&b, "  - and %d more\n", r.MoreQuestions)
		}
	}
	return strings.TrimSuffix(b.String(), "\n") + "\n\n"
}

// durationWords is 12 s, 3 min 04 s, 1 h 02 min (as the window shows it).
func durationWords(ms int64) string {
	s := max(ms/1000, 0)
	switch {
	case s < 60:
		return fmt.Sprintf("%d s", s)
	case s < 3600:
		return fmt.Sprintf("%d min %02d s", s/60, s%60)
	}
	return fmt.Sprintf("%d h %02d min", s/3600, s/60%60)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// code is s as a Markdown code span, on one line, fenced so that a backtick in it cannot end it.
func code(s string) string {
	s = oneLine(s)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}
