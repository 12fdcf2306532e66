package cli

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"agentdesk/backend/acp"
)

// printer renders a session's events as a plain-text transcript for the CLI: message and thought
// text streams as it arrives; tool calls print a line per status change; permission decisions
// and the plan print as they happen. Safe for concurrent use.
type printer struct {
	mu      sync.Mutex
	w       io.Writer
	ask     io.Writer         // where printf writes: w, or stderr when w carries JSON (both through safeText)
	own     io.Writer         // ask without safeText: chat's own styled lines (printOwn)
	json    bool              // write each event as one line of JSON (run --output json)
	last    string            // entry id whose text was printed last (chunks continue it)
	tools   map[string]string // entry id → last printed status (tool calls, compactions)
	titles  map[string]string // permission request id → tool title
	planned string            // last printed plan
	ended   bool              // the turn's stop reason is printed; the CLI's transcript is over
	// hideUser leaves out the person's prompts: chat's line editor has shown them as typed.
	hideUser bool
	// told holds the error texts printed as transcript lines; sharesStderr is set when stdout
	// and stderr reach the same file (a terminal, one pipe), so a failure told is not said twice.
	told         map[string]bool
	sharesStderr bool
}

func newPrinter(w io.Writer) *printer {
	safe := safeWriter{w} // termsafe.go: an agent's text never writes escapes to the terminal
	return &printer{w: safe, ask: safe, own: w, tools: map[string]string{}, titles: map[string]string{}, told: map[string]bool{}}
}

// fail says on stderr, as command who, that the session failed with msg (a failed start, a
// turn's error) — unless the transcript already showed msg on the file stderr goes to too, so
// that a person reads a failure once, not as an error line, a state line and a complaint.
func (p *printer) fail(stderr io.Writer, who, msg string) {
	p.mu.Lock()
	told := p.sharesStderr && p.told[msg]
	p.mu.Unlock()
	if !told {
		fmt.Fprintf(stderr, "agentdesk %s: %s\n", who, msg)
	}
}

// newJSONPrinter writes each event as one line of JSON to w (the event contract, as the window
// gets it), the turn's turn_end last; the terminal's prompts go to ask, out of the stream.
func newJSONPrinter(w, ask io.Writer) *printer {
	p := newPrinter(w)
	p.w, p.ask, p.own, p.json = w, safeWriter{ask}, ask, true // escapeJSON escapes what the filter would drop
	return p
}

// printf writes text that is not an event (the terminal's permission prompts) between events, never
// in the middle of another write.
func (p *printer) printf(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.ask, format, args...)
}

// nextTurn lets the printer print another turn after the last one's stop reason (chat's turns).
func (p *printer) nextTurn() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ended = false
}

// printOwn writes s, text of the CLI's own that may hold its styling escapes (chat's dim lines),
// as printf does but without safeText: s must hold no agent text that has not been through it.
func (p *printer) printOwn(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	io.WriteString(p.own, s)
}

func (p *printer) print(ev acp.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended {
		// The stop reason is the last line: an exit noticed after the turn ended (the agent
		// crashed, and the turn failed first) was already told by the turn's error.
		return
	}
	if p.json {
		p.ended = ev.Kind == acp.EventTurnEnd
		line, err := json.Marshal(ev)
		if err != nil { // an Event always marshals; say so rather than drop it silently
			line, _ = json.Marshal(map[string]string{"kind": "error", "message": err.Error()})
		}
		p.w.Write(escapeJSON(append(line, '\n'))) // the text exactly, no control a terminal obeys
		return
	}
	switch ev.Kind {
	case acp.EventTurnEnd:
		p.ended = true
		if lines := receiptLines(ev.Receipt); len(lines) > 0 {
			p.line("")
			fmt.Fprint(p.w, strings.Join(lines, "\n"))
		}
		fmt.Fprintf(p.w, "\nstop reason: %s\n", ev.StopReason)
	case acp.EventEntry:
		p.entry(ev.Entry)
	case acp.EventChunk:
		if p.last != ev.EntryID {
			p.line("")
			p.last = ev.EntryID
		}
		fmt.Fprint(p.w, ev.Text)
	case acp.EventPermission:
		p.titles[ev.RequestID] = ev.Title
		names := make([]string, len(ev.Options))
		for i, o := range ev.Options {
			names[i] = fmt.Sprintf("%s (%s)", o.Name, o.Kind)
		}
		p.line(fmt.Sprintf("[permission] %s? options: %s", safeLine(ev.Title), strings.Join(names, ", ")))
	case acp.EventPermissionDone:
		d := cmp.Or(ev.Decision, &acp.DecisionSummary{Outcome: "cancelled"})
		decision := "cancelled"
		if d.Outcome == "selected" {
			decision = "chose " + d.OptionID
		}
		title := p.titles[ev.RequestID]
		if d.DecidedBy == acp.DecidedByRule { // no permission event came first: nobody was asked
			title = ev.Title
			decision += " by rule: " + d.RuleLabel
		}
		p.line(fmt.Sprintf("[permission] %s: %s", safeLine(title), safeLine(decision))) // one line: a title cannot forge a decision
	case acp.EventState:
		if ev.Message != "" && !p.told[ev.Message] { // a failed start's error line said it
			p.line(fmt.Sprintf("[%s] %s", ev.State, ev.Message))
		}
	}
}

func (p *printer) entry(e *acp.Entry) {
	switch e.Kind {
	case acp.KindUser:
		if p.hideUser {
			break
		}
		p.line("> " + e.Text)
	case acp.KindAgent, acp.KindThought:
		if p.last == e.ID {
			return // an upsert of text already printed
		}
		prefix := ""
		if e.Kind == acp.KindThought {
			prefix = "[thought] "
		}
		p.line("")
		fmt.Fprint(p.w, prefix+e.Text)
		p.last = e.ID
		return
	case acp.KindTool:
		if p.tools[e.ID] == e.Status {
			return
		}
		p.tools[e.ID] = e.Status
		p.line(fmt.Sprintf("[tool] %s (%s): %s", safeLine(e.Title), e.ToolKind, e.Status))
	case acp.KindPlan:
		var b strings.Builder
		for _, pe := range e.Plan {
			mark := map[string]string{"completed": "x", "in_progress": "~"}[pe.Status]
			if mark == "" {
				mark = " "
			}
			fmt.Fprintf(&b, "\n  [%s] %s", mark, pe.Content)
		}
		if b.String() != p.planned {
			p.planned = b.String()
			p.line("[plan]" + b.String())
		}
	case acp.KindUsage:
		p.line(fmt.Sprintf("[usage] %d / %d tokens", e.Usage.Used, e.Usage.Size))
	case acp.KindBoundary:
		p.line("── " + acp.BoundaryLine(e.Boundary) + " ──")
	case acp.KindNotice:
		p.line(fmt.Sprintf("[notice: %s] %s", e.Notice.Severity, strings.TrimSpace(e.Notice.Title+"\n"+e.Notice.Description)))
	case acp.KindCompaction:
		if p.tools[e.ID] == e.Compaction.Status {
			return // a summary chunk: printed with the status that ends it
		}
		p.tools[e.ID] = e.Compaction.Status
		p.line(fmt.Sprintf("── context compaction: %s ──", acp.CompactionStatus(e.Compaction)))
	case acp.KindSubagent:
		if line := acp.SubagentLine(e.Subagent); p.tools[e.ID] != line {
			p.tools[e.ID] = line
			p.line("[subagent] " + safeLine(line))
		}
	case acp.KindElicitation:
		if p.tools[e.ID] == e.Elicitation.State {
			return
		}
		p.tools[e.ID] = e.Elicitation.State
		p.line(elicitationLine(e.Elicitation))
	case acp.KindUnknown:
		p.line(fmt.Sprintf("[unsupported update: %s]", e.UpdateKind))
	case acp.KindError:
		p.told[e.Text] = true
		p.line("[error] " + e.Text)
		if e.Stderr != "" {
			p.line("[stderr]\n" + e.Stderr)
		}
	}
	p.last = ""
}

// line starts a new line (ending any streamed text) and prints s.
func (p *printer) line(s string) {
	if p.last != "" {
		fmt.Fprintln(p.w)
	}
	p.last = ""
	if s != "" {
		fmt.Fprintln(p.w, s)
	}
}

// elicitationLine is an agent's question as the transcript prints it: when it opens, its
// message (and link); later how it ended, with the answer (secrets read ••••••).
func elicitationLine(el *acp.Elicitation) string {
	if el.State == acp.ElicitOpen {
		s := "[question] " + el.Message
		if el.URL != "" {
			s += fmt.Sprintf("\n  link: %s (host %s)", el.URL, el.Host)
		}
		return s
	}
	s := "[question] " + acp.ElicitationStateLine(el)
	if lines := acp.ElicitationAnswerLines(el); len(lines) > 0 {
		s += ": " + strings.Join(lines, ", ")
	}
	if el.State == acp.ElicitInvalid {
		s = "[question] " + el.Message + "\n  " + acp.ElicitationStateLine(el)
	}
	return s
}
