package receipt

import (
	"encoding/json"
	"time"

	"agentdesk/backend/acp/schema"
)

// Draft is the receipt of the running turn as it is gathered: the session makes one when a turn
// starts, tells it what the agent does, and Finish turns it into the turn's Receipt. Not safe
// for concurrent use: its owner calls it under its own lock. Every method of a nil *Draft
// records nothing.
type Draft struct {
	commands     []draftCommand
	moreCommands int
	// counted are the terminals ("t:"+id) and tool cards ("e:"+entry id) already listed in
	// commands or counted in moreCommands, so that an update or a late link counts nothing twice.
	counted map[string]bool

	decisions     []Decision
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
	Command
	termID    string // the terminal of ours that runs it, if any
	entryID   string // the tool card of an execute call, if any
	fromTitle bool   // Command is the card's title: the rawInput had no command (yet)
}

// NewDraft starts the draft of a turn; cost is the session's cost as last reported (nil: none
// yet), the base of the turn's cost.
func NewDraft(cost *schema.Cost) *Draft {
	d := &Draft{counted: map[string]bool{}}
	if cost != nil {
		c := *cost
		d.costAtStart = &c
	}
	return d
}

// TerminalStarted records a terminal the agent created with terminal/create: its id, its
// command line, and its exit when it has already ended (a quick command may end before this
// is called).
func (d *Draft) TerminalStarted(id, line string, exit *schema.TerminalExitStatus) {
	if d == nil || d.counted["t:"+id] {
		return
	}
	d.counted["t:"+id] = true
	c := draftCommand{Command: Command{Command: cutLine(line)}, termID: id}
	c.setExit(exit)
	d.commands = bounded(d.commands, &d.moreCommands, c)
}

// TerminalEnded notes the exit of terminal id in the command that ran it (nil: not yet).
func (d *Draft) TerminalEnded(id string, exit *schema.TerminalExitStatus) {
	if d == nil || exit == nil {
		return
	}
	for i := range d.commands {
		if d.commands[i].termID == id {
			d.commands[i].setExit(exit)
		}
	}
}

// AddDecision adds a closed permission request to the turn's decisions.
func (d *Draft) AddDecision(dec Decision) {
	if d != nil {
		d.decisions = bounded(d.decisions, &d.moreDecisions, dec)
	}
}

// AddQuestion adds an elicitation, by the id of its transcript entry, to the turn's questions;
// how it ended is read when the turn ends (Ending.Question).
func (d *Draft) AddQuestion(entryID string) {
	if d != nil {
		d.questions = bounded(d.questions, &d.moreQuestions, entryID)
	}
}

// bounded appends v to list while it holds fewer than MaxItems; beyond, it counts v in more.
func bounded[T any](list []T, more *int, v T) []T {
	if len(list) >= MaxItems {
		*more++
		return list
	}
	return append(list, v)
}

// Waiting starts or stops the turn's clock of time spent waiting on a person, after a
// permission request or an elicitation opened or closed: open says whether at least one is
// open now, so overlapping waits count once.
func (d *Draft) Waiting(open bool, now time.Time) {
	switch {
	case d == nil:
	case open && d.waitSince.IsZero():
		d.waitSince = now
	case !open && !d.waitSince.IsZero():
		d.waited += now.Sub(d.waitSince)
		d.waitSince = time.Time{}
	}
}

// Ending is what the owner knows of a turn that ends now.
type Ending struct {
	StopReason string
	Changes    *schema.TurnChanges // the change ledger's account, nil when none
	Began, End time.Time
	// Usage is the usage of the agent's answer to session/prompt (raw; absent or unreadable: no
	// tokens). Cost is the session's cost now (nil: never reported).
	Usage json.RawMessage
	// Meta is that answer's _meta, read for tokens only when Usage has none (promptTokens).
	Meta json.RawMessage
	Cost *schema.Cost
	// Question says how the elicitation of entry id ended; false when the entry is gone.
	Question func(entryID string) (Question, bool)
}

// Finish builds the receipt of the turn that ends now from e and what the draft gathered. The
// draft is spent: its owner drops it.
func (d *Draft) Finish(e Ending) *Receipt {
	r := &Receipt{StopReason: e.StopReason, Changes: e.Changes,
		StartedAt: e.Began.UnixMilli(), EndedAt: e.End.UnixMilli(), WallMs: e.End.Sub(e.Began).Milliseconds(),
		Tokens: promptTokens(e.Usage)}
	if r.Tokens == nil {
		r.Tokens = quotaTokens(e.Meta)
	}
	if d == nil {
		return r
	}
	d.Waiting(false, e.End)
	r.WaitMs = d.waited.Milliseconds()
	for _, c := range d.commands {
		r.Commands = append(r.Commands, c.Command)
	}
	r.MoreCommands = d.moreCommands
	r.Decisions = append([]Decision(nil), d.decisions...)
	r.MoreDecisions = d.moreDecisions
	for _, id := range d.questions {
		if q, ok := e.Question(id); ok {
			r.Questions = append(r.Questions, q)
		}
	}
	r.MoreQuestions = d.moreQuestions
	if e.Cost != nil && (d.costAtStart == nil || d.costAtStart.Currency == e.Cost.Currency) {
		c := *e.Cost
		if d.costAtStart != nil {
			c.Amount -= d.costAtStart.Amount
		}
		if c.Amount > 0 { // nothing grew (or the agent restarted its count): no cost to show
			r.Cost = &c
		}
	}
	return r
}

// quotaTokens reads the tokens Gemini CLI (0.61) reports in its session/prompt answer's
// _meta.quota.token_count instead of usage; nil when absent or unreadable.
func quotaTokens(meta json.RawMessage) *Tokens {
	var m struct {
		Quota struct {
			TokenCount struct {
				Input  int64 `json:"input_tokens"`
				Output int64 `json:"output_tokens"`
			} `json:"token_count"`
		} `json:"quota"`
	}
	if len(meta) == 0 || json.Unmarshal(meta, &m) != nil {
		return nil
	}
	c := m.Quota.TokenCount
	if c.Input <= 0 && c.Output <= 0 {
		return nil
	}
	return &Tokens{Input: max(c.Input, 0), Output: max(c.Output, 0), Total: max(c.Input, 0) + max(c.Output, 0)}
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
