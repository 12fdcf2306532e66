package acp

import (
	"encoding/json"
	"strings"
	"time"

	"agentdesk/backend/acp/schema"
	"agentdesk/backend/acp/terminal"
)

// MaxReceiptItems bounds each list of a receipt (commands, decisions, questions): an agent that
// runs commands or asks without end must not grow a turn's receipt (and its row in the
// history) without limit. What is beyond the bound is counted in the receipt's More* fields.
const MaxReceiptItems = 200

// receiptDraft is the receipt of the running turn as it is gathered: startTurnLocked makes it,
// the handlers of the agent's messages add to it, and receiptLocked turns it into the turn's
// Receipt. Every field is guarded by the session's mu.
type receiptDraft struct {
	commands     []draftCommand
	moreCommands int
	// counted are the terminals ("t:"+id) and tool cards ("e:"+entry id) already listed in
	// commands or counted in moreCommands, so that an update or a late link counts nothing twice.
	counted map[string]bool

	decisions     []ReceiptDecision
	moreDecisions int

	questions     []string // the elicitations' entry ids, read when the turn ends
	moreQuestions int

	// waitSince is when a person started being waited on (a permission request or an
	// elicitation open), zero while nothing waits; waited is what has been waited before.
	waitSince time.Time
	waited    time.Duration

	// costAtStart is the session's cost when the turn started (nil: none reported yet).
	costAtStart *schema.Cost
}

// draftCommand is one command of the draft and what links it to a terminal and a tool card.
type draftCommand struct {
	ReceiptCommand
	termID    string // the terminal of ours that runs it, if any
	entryID   string // the tool card of an execute call, if any
	fromTitle bool   // Command is the card's title: the rawInput had no command (yet)
}

func newReceiptDraft(cost *schema.Cost) *receiptDraft {
	d := &receiptDraft{counted: map[string]bool{}}
	if cost != nil {
		c := *cost
		d.costAtStart = &c
	}
	return d
}

// terminalStarted records a terminal the agent created with terminal/create (a worker calls it
// once the command runs).
func (s *Session) terminalStarted(id, line string) {
	s.mu.Lock()
	defer s.unlock()
	d := s.draft
	if d == nil || d.counted["t:"+id] {
		return
	}
	d.counted["t:"+id] = true
	if len(d.commands) >= MaxReceiptItems {
		d.moreCommands++
		return
	}
	c := draftCommand{ReceiptCommand: ReceiptCommand{Command: line}, termID: id}
	if v, ok := s.tr.terms[id]; ok {
		c.setExit(v.ExitStatus) // a quick command may have ended before this runs
	}
	d.commands = append(d.commands, c)
}

// terminalViewLocked notes the exit of a terminal of ours in the command that ran it.
func (s *Session) terminalViewLocked(id string, v terminal.View) {
	if s.draft == nil || v.ExitStatus == nil {
		return
	}
	for i := range s.draft.commands {
		if s.draft.commands[i].termID == id {
			s.draft.commands[i].setExit(v.ExitStatus)
		}
	}
}

// toolCardLocked notes what the tool card entryID (just added or changed) adds to the running
// turn's commands: an execute call is a command, unless the terminal it shows already is one
// (then the terminal's command is linked to the card instead of being counted twice).
func (s *Session) toolCardLocked(entryID string) {
	d := s.draft
	if d == nil {
		return
	}
	i, ok := s.tr.byID[entryID]
	if !ok {
		return
	}
	e := s.tr.entries[i]
	// The terminals of ours the card shows.
	var linked []int
	for _, c := range e.Content {
		if c.Type != "terminal" || c.TerminalID == "" {
			continue
		}
		for j := range d.commands {
			if d.commands[j].termID == c.TerminalID && (d.commands[j].entryID == "" || d.commands[j].entryID == entryID) {
				linked = append(linked, j)
			}
		}
	}
	own := -1 // the card's own command (an execute call not yet linked to a terminal)
	for j := range d.commands {
		if d.commands[j].entryID == entryID && d.commands[j].termID == "" {
			own = j
		}
	}
	if len(linked) == 0 {
		for _, c := range e.Content {
			if c.Type == "terminal" && d.counted["t:"+c.TerminalID] {
				d.counted["e:"+entryID] = true // its terminal is counted (beyond the list's bound)
				return
			}
		}
	}
	for _, j := range linked {
		d.commands[j].entryID, d.commands[j].ToolCallID = entryID, entryID
	}
	if len(linked) > 0 {
		if own >= 0 {
			// Listed twice: keep the earlier place, with the terminal's exact command line.
			first := linked[0]
			if own < first {
				d.commands[own] = d.commands[first]
				own, first = first, own
			}
			d.commands = append(d.commands[:own], d.commands[own+1:]...)
		}
		d.counted["e:"+entryID] = true
		return
	}
	if e.ToolKind != "execute" {
		return
	}
	command, fromTitle := executeCommand(e)
	exit := cardExit(e)
	if own >= 0 {
		c := &d.commands[own]
		if c.fromTitle && !fromTitle || c.Command == "" {
			c.Command, c.fromTitle = command, fromTitle
		}
		if exit != nil {
			c.setExit(exit)
		}
		return
	}
	if d.counted["e:"+entryID] {
		return
	}
	d.counted["e:"+entryID] = true
	if len(d.commands) >= MaxReceiptItems {
		d.moreCommands++
		return
	}
	c := draftCommand{ReceiptCommand: ReceiptCommand{Command: command, ToolCallID: entryID}, entryID: entryID, fromTitle: fromTitle}
	c.setExit(exit)
	d.commands = append(d.commands, c)
}

// executeCommand is an execute card's command line: rawInput's command (a string or a list of
// words) or cmd, else the card's title (fromTitle).
func executeCommand(e *Entry) (command string, fromTitle bool) {
	var in struct {
		Command json.RawMessage `json:"command"`
		Cmd     json.RawMessage `json:"cmd"`
	}
	if len(e.RawInput) > 0 && json.Unmarshal(e.RawInput, &in) == nil {
		for _, raw := range []json.RawMessage{in.Command, in.Cmd} {
			var line string
			if json.Unmarshal(raw, &line) == nil && strings.TrimSpace(line) != "" {
				return cutText(line, maxCommandLine), false
			}
			var words []string
			if json.Unmarshal(raw, &words) == nil && len(words) > 0 {
				for i, w := range words {
					words[i] = terminal.ShellQuote(w)
				}
				return cutText(strings.Join(words, " "), maxCommandLine), false
			}
		}
	}
	return cutText(e.Title, maxCommandLine), true
}

// maxCommandLine bounds a command line as a receipt keeps it.
const maxCommandLine = 4 << 10

// cardExit is how the terminal a card shows ended (ours, or one the agent runs itself and
// reports in _meta), nil while unknown.
func cardExit(e *Entry) *schema.TerminalExitStatus {
	for _, c := range e.Content {
		if c.Type == "terminal" && c.ExitStatus != nil {
			return c.ExitStatus
		}
	}
	return nil
}

func (c *draftCommand) setExit(x *schema.TerminalExitStatus) {
	if x == nil {
		return
	}
	c.ExitCode, c.Signal = nil, ""
	if x.ExitCode != nil {
		code := *x.ExitCode
		c.ExitCode = &code
	}
	if x.Signal != nil {
		c.Signal = *x.Signal
	}
}

// decisionDraftLocked adds a closed permission request to the running turn's decisions.
func (s *Session) decisionDraftLocked(title string, d DecisionSummary) {
	if s.draft == nil {
		return
	}
	if len(s.draft.decisions) >= MaxReceiptItems {
		s.draft.moreDecisions++
		return
	}
	s.draft.decisions = append(s.draft.decisions, ReceiptDecision{Title: title, ToolCallID: d.ToolCallID,
		Outcome: d.Outcome, Option: d.OptionName, Kind: d.OptionKind, DecidedBy: d.DecidedBy, Rule: d.RuleLabel})
}

// questionDraftLocked adds an elicitation (its entry) to the running turn's questions.
func (s *Session) questionDraftLocked(entryID string) {
	if s.draft == nil {
		return
	}
	if len(s.draft.questions) >= MaxReceiptItems {
		s.draft.moreQuestions++
		return
	}
	s.draft.questions = append(s.draft.questions, entryID)
}

// waitTickLocked starts or stops the running turn's clock of time spent waiting on a person,
// after a permission request or an elicitation opened or closed: it runs while at least one is
// open, so overlapping waits count once.
func (s *Session) waitTickLocked() {
	d := s.draft
	if d == nil {
		return
	}
	open := len(s.perms.open)+len(s.elicits.open) > 0
	switch {
	case open && d.waitSince.IsZero():
		d.waitSince = s.now()
	case !open && !d.waitSince.IsZero():
		d.waited += s.now().Sub(d.waitSince)
		d.waitSince = time.Time{}
	}
}

// costLocked notes the session's cost from a usage_update.
func (s *Session) costLocked(u *schema.Usage) {
	if u != nil && u.Cost != nil {
		c := *u.Cost
		s.cost = &c
	}
}

// lastCost is the last cost among saved entries (a seeded session's), nil when none.
func lastCost(entries []Entry) *schema.Cost {
	for i := len(entries) - 1; i >= 0; i-- {
		if u := entries[i].Usage; entries[i].Kind == KindUsage && u != nil && u.Cost != nil {
			c := *u.Cost
			return &c
		}
	}
	return nil
}

// promptTokens reads the usage of a session/prompt answer; nil when absent or unreadable.
func promptTokens(raw json.RawMessage) *Tokens {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var u struct {
		Input       int64 `json:"inputTokens"`
		Output      int64 `json:"outputTokens"`
		Thought     int64 `json:"thoughtTokens"`
		CachedRead  int64 `json:"cachedReadTokens"`
		CachedWrite int64 `json:"cachedWriteTokens"`
		Total       int64 `json:"totalTokens"`
	}
	if json.Unmarshal(raw, &u) != nil {
		return nil
	}
	t := Tokens(u)
	if t.Total == 0 {
		t.Total = t.Input + t.Output + t.Thought
	}
	if t == (Tokens{}) {
		return nil
	}
	return &t
}

// finishLocked fills r from the draft of the turn that ends now.
func (d *receiptDraft) finishLocked(s *Session, r *Receipt, end time.Time) {
	if !d.waitSince.IsZero() {
		d.waited += end.Sub(d.waitSince)
		d.waitSince = time.Time{}
	}
	r.WaitMs = d.waited.Milliseconds()
	for _, c := range d.commands {
		r.Commands = append(r.Commands, c.ReceiptCommand)
	}
	r.MoreCommands = d.moreCommands
	r.Decisions = append([]ReceiptDecision(nil), d.decisions...)
	r.MoreDecisions = d.moreDecisions
	for _, id := range d.questions {
		i, ok := s.tr.byID[id]
		if !ok || s.tr.entries[i].Elicitation == nil {
			continue
		}
		el := s.tr.entries[i].Elicitation
		r.Questions = append(r.Questions, ReceiptQuestion{Message: el.Message, Mode: el.Mode, State: el.State, AnsweredBy: el.AnsweredBy})
	}
	r.MoreQuestions = d.moreQuestions
	if s.cost != nil && (d.costAtStart == nil || d.costAtStart.Currency == s.cost.Currency) {
		c := *s.cost
		if d.costAtStart != nil {
			c.Amount -= d.costAtStart.Amount
		}
		if c.Amount < 0 {
			c.Amount = 0 // the agent restarted its count
		}
		r.Cost = &c
	}
}
