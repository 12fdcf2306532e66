package acp

import (
	"context"
	"time"

	"agentdesk/backend/acp/receipt"
	"agentdesk/backend/acp/schema"
)

// TurnObserver is told when each turn starts and ends; the change ledger (the hub's
// backend/changes recorder) snapshots the session's folders there. Both calls run on the
// turn's goroutine with no lock held: TurnStarted before the prompt goes on the wire,
// TurnEnded after the agent answered it (or failed, was stopped or stopped hard) and before the
// turn's receipt and turn_end. The turn waits for them, so they must not call back into the
// Session; they are never called for two turns of one session at once. ctx ends when the person
// stops the turn (Stop, a hard stop, Close) during the call: the call must then return
// promptly, with what it has, so that the turn ends whatever the observer was doing.
type TurnObserver interface {
	TurnStarted(ctx context.Context, turn int)
	TurnEnded(ctx context.Context, turn int) *schema.TurnChanges
}

// now is the session's clock (Config.Now, else time.Now).
func (s *Session) now() time.Time {
	if s.cfg.Now != nil {
		return s.cfg.Now()
	}
	return time.Now()
}

// turnBegun tells the observer a turn starts and notes when; runTurn calls it first.
func (s *Session) turnBegun(turn int) time.Time {
	if s.cfg.Turns != nil {
		s.observe(func(ctx context.Context) { s.cfg.Turns.TurnStarted(ctx, turn) })
	}
	return s.now()
}

// turnChanges asks the observer what the turn changed; runTurn calls it before endTurn.
func (s *Session) turnChanges(turn int) (tc *schema.TurnChanges) {
	if s.cfg.Turns == nil {
		return nil
	}
	s.observe(func(ctx context.Context) { tc = s.cfg.Turns.TurnEnded(ctx, turn) })
	return tc
}

// observe runs an observer call with a context that a Stop or hard stop made meanwhile ends
// (cancelObserverLocked).
func (s *Session) observe(call func(ctx context.Context)) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.mu.Lock()
	s.observing = cancel
	s.unlock()
	call(ctx)
	s.mu.Lock()
	s.observing = nil
	s.unlock()
}

// cancelObserverLocked ends the observer call in progress, if any: the person stopped the
// turn, which must end even while its folders are being recorded. The caller holds s.mu.
func (s *Session) cancelObserverLocked() {
	if s.observing != nil {
		s.observing()
	}
}

// receiptLocked builds the receipt of a turn that ends now, with the tokens of the agent's
// answer res and what the turn's draft gathered, and drops the draft; endTurn calls it with s.mu
// held, after every open request of the turn was closed.
func (s *Session) receiptLocked(ts TurnSummary, te turnEnd, res schema.PromptResult) *receipt.Receipt {
	r := s.draft.Finish(receipt.Ending{StopReason: ts.StopReason, Changes: te.changes, Began: te.began, End: s.now(),
		Usage: res.Usage, Meta: res.Meta, Cost: s.cost, Question: s.tr.question})
	s.draft = nil
	return r
}

// toolCardLocked tells the running turn's draft of the tool card entryID, just added or changed.
func (s *Session) toolCardLocked(entryID string) {
	i, ok := s.tr.byID[entryID]
	if s.draft == nil || !ok {
		return
	}
	e := s.tr.entries[i]
	card := receipt.Card{EntryID: entryID, ToolKind: e.ToolKind, Title: e.Title, RawInput: e.RawInput,
		Failed: e.Status == StatusFailed, RawOutput: e.RawOutput}
	for _, c := range e.Content {
		switch {
		case c.Type == "terminal":
			card.Terminals = append(card.Terminals, receipt.CardTerminal{ID: c.TerminalID, Exit: c.ExitStatus})
		case c.Type == "content" && card.Text == "":
			card.Text = c.Text
		}
	}
	s.draft.ToolCard(card)
}

// waitTickLocked tells the running turn's draft whether a person is waited on now, after a
// permission request or an elicitation opened or closed.
func (s *Session) waitTickLocked() {
	s.draft.Waiting(len(s.perms.open)+len(s.elicits.open) > 0, s.now())
}

// receiptDecision is a closed permission request as the turn's receipt lists it.
func receiptDecision(title string, d DecisionSummary) receipt.Decision {
	return receipt.Decision{Title: title, ToolCallID: d.ToolCallID, Outcome: d.Outcome, Option: d.OptionName,
		Kind: d.OptionKind, DecidedBy: d.DecidedBy, Rule: d.RuleLabel}
}

// costLocked notes the session's cost from a usage_update (the base of the next turn's cost).
func (s *Session) costLocked(u *schema.Usage) {
	if u != nil && u.Cost != nil {
		s.cost = copyOf(u.Cost)
	}
}

// lastCost is the last cost among saved entries (a seeded session's), nil when none.
func lastCost(entries []Entry) *schema.Cost {
	for i := len(entries) - 1; i >= 0; i-- {
		if u := entries[i].Usage; entries[i].Kind == KindUsage && u != nil && u.Cost != nil {
			return copyOf(u.Cost)
		}
	}
	return nil
}

// question is how the elicitation of entry id ended, as a receipt lists it; false when the
// transcript has no such elicitation.
func (t *Transcript) question(id string) (receipt.Question, bool) {
	i, ok := t.byID[id]
	if !ok || t.entries[i].Elicitation == nil {
		return receipt.Question{}, false
	}
	el := t.entries[i].Elicitation
	return receipt.Question{Message: el.Message, Mode: el.Mode, State: el.State, AnsweredBy: el.AnsweredBy}, true
}
