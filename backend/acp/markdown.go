package acp

import (
	"fmt"
	"strings"

	"agentdesk/backend/acp/attach"
	"agentdesk/backend/acp/terminal"
)

// EntryMarkdown renders one entry as Markdown: the form used by golden tests and by export.
// Agent text is emitted as is (it is already Markdown); everything else is quoted or fenced so
// that it cannot change the structure around it.
func EntryMarkdown(e *Entry) string {
	var b strings.Builder
	switch e.Kind {
	case KindUser:
		steered := ""
		if e.Steered {
			steered = ", steered into the turn"
		}
		fmt.Fprintf(&b, "## User (turn %d%s)\n\n%s\n", e.Turn, steered, quote(e.Text))
		if len(e.Attachments) > 0 {
			b.WriteString("\nAttached:\n\n")
			for _, a := range e.Attachments {
				fmt.Fprintf(&b, "- %s\n", attachmentLine(a))
			}
		}
	case KindAgent:
		fmt.Fprintf(&b, "## Agent\n\n%s\n", e.Text)
	case KindThought:
		fmt.Fprintf(&b, "## Thought\n\n%s\n", quote(e.Text))
	case KindTool:
		fmt.Fprintf(&b, "## Tool: %s [%s, %s]\n", oneLine(e.Title), e.ToolKind, e.Status)
		for _, l := range e.Locations {
			if l.Line != nil {
				fmt.Fprintf(&b, "\n- `%s:%d`", l.Path, *l.Line)
			} else {
				fmt.Fprintf(&b, "\n- `%s`", l.Path)
			}
		}
		if len(e.Locations) > 0 {
			b.WriteString("\n")
		}
		for _, c := range e.Content {
			b.WriteString("\n")
			b.WriteString(toolContentMarkdown(c))
		}
	case KindPlan:
		b.WriteString("## Plan\n\n")
		for _, p := range e.Plan {
			mark := " "
			switch p.Status {
			case "completed":
				mark = "x"
			case "in_progress":
				mark = "~"
			}
			fmt.Fprintf(&b, "- [%s] %s (%s)\n", mark, oneLine(p.Content), p.Priority)
		}
	case KindUsage:
		fmt.Fprintf(&b, "## Usage\n\n%d / %d tokens\n", e.Usage.Used, e.Usage.Size)
	case KindUnknown:
		fmt.Fprintf(&b, "## Unsupported update: %s\n\n%s\n", oneLine(e.UpdateKind), fence("json", string(e.Raw)))
	case KindBoundary:
		fmt.Fprintf(&b, "## Continued: %s\n", BoundaryLine(e.Boundary))
	case KindNotice:
		fmt.Fprintf(&b, "## Notice (%s): %s\n", oneLine(e.Notice.Severity), oneLine(e.Notice.Title))
		if e.Notice.Description != "" {
			b.WriteString("\n" + quote(e.Notice.Description) + "\n")
		}
	case KindCompaction:
		fmt.Fprintf(&b, "## Context compacted (%s)\n", oneLine(CompactionStatus(e.Compaction)))
		if e.Compaction.Error != "" {
			b.WriteString("\n" + quote(e.Compaction.Error) + "\n")
		}
		if e.Compaction.Summary != "" {
			b.WriteString("\nSummary kept by the agent:\n\n" + quote(e.Compaction.Summary) + "\n")
		}
	case KindSubagent:
		fmt.Fprintf(&b, "## Subagent: %s\n", oneLine(SubagentLine(e.Subagent)))
		if e.Subagent.Description != "" {
			b.WriteString("\n" + quote(e.Subagent.Description) + "\n")
		}
		fmt.Fprintf(&b, "\nIts transcript is saved as session `%s`.\n", e.Subagent.SessionID)
	case KindElicitation:
		elicitationMarkdown(&b, e.Elicitation)
	case KindError:
		fmt.Fprintf(&b, "## Error\n\n%s\n", quote(e.Text))
		if len(e.Data) > 0 {
			b.WriteString("\n" + fence("json", string(e.Data)))
		}
		if e.Stderr != "" {
			b.WriteString("\nstderr:\n\n" + fence("text", e.Stderr))
		}
	}
	return b.String()
}

func toolContentMarkdown(c ToolContent) string {
	switch c.Type {
	case "content":
		if c.Raw != nil {
			return fence("json", string(c.Raw))
		}
		return fence("text", c.Text)
	case "diff":
		var d strings.Builder
		fmt.Fprintf(&d, "--- %s\n+++ %s\n", c.Path, c.Path)
		if c.OldText != nil {
			for _, l := range strings.Split(*c.OldText, "\n") {
				d.WriteString("-" + l + "\n")
			}
		}
		for _, l := range strings.Split(c.NewText, "\n") {
			d.WriteString("+" + l + "\n")
		}
		return fence("diff", strings.TrimSuffix(d.String(), "\n"))
	case "terminal":
		return terminalMarkdown(c)
	default:
		return fence("json", string(c.Raw))
	}
}

// terminalMarkdown is a terminal's output, fenced, and how its command ended; a terminal with
// neither (not ours, or silent so far) is a bare reference.
func terminalMarkdown(c ToolContent) string {
	if c.Output == "" && c.ExitStatus == nil {
		return fmt.Sprintf("(terminal %s)\n", c.TerminalID)
	}
	var b strings.Builder
	if c.Truncated {
		b.WriteString("(earlier output cut)\n\n")
	}
	if c.Output != "" {
		b.WriteString(fence("text", terminal.PlainText(c.Output))) // colours are for the card
	}
	switch st := c.ExitStatus; {
	case st == nil:
	case st.Signal != nil:
		fmt.Fprintf(&b, "\n(killed by %s)\n", *st.Signal)
	case st.ExitCode != nil:
		fmt.Fprintf(&b, "\n(exit code %d)\n", *st.ExitCode)
	}
	return b.String()
}

// fence wraps s in a code fence longer than any backtick run inside it.
func fence(lang, s string) string {
	ticks := "```"
	for strings.Contains(s, ticks) {
		ticks += "`"
	}
	return ticks + lang + "\n" + strings.TrimSuffix(s, "\n") + "\n" + ticks + "\n"
}

func quote(s string) string {
	return "> " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n> ")
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// attachmentLine describes an attachment in one line: a file as a code span of its path.
func attachmentLine(a attach.Info) string {
	how := a.Sent
	if a.Kind == attach.KindImage {
		how = "image"
		if a.Width > 0 {
			how += fmt.Sprintf(" %d×%d", a.Width, a.Height)
		}
	}
	what := "`" + strings.ReplaceAll(oneLine(a.Name), "`", "'") + "`"
	if a.Path != "" {
		what = "`" + strings.ReplaceAll(a.Path, "`", "'") + "`"
	}
	return fmt.Sprintf("%s (%s, %s)", what, how, HumanSize(a.Size))
}

// HumanSize is a byte count for people: 980 B, 1.2 kB, 3.4 MB.
func HumanSize(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f kB", float64(n)/1000)
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	}
}
