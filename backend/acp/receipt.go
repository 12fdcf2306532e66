package acp

import (
	"context"
	"encoding/json"
	"time"

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

// Receipt is what a turn did: it rides on the turn's turn_end event and its TurnSummary, and the
// history keeps it with the turn.
type Receipt struct {
	StopReason string              `json:"stopReason"`
	Changes    *schema.TurnChanges `json:"changes,omitempty"`
	// StartedAt and EndedAt are unix milliseconds; WallMs is the turn's length.
	StartedAt int64 `json:"startedAt"`
	EndedAt   int64 `json:"endedAt"`
	WallMs    int64 `json:"wallMs"`
	// WaitMs is how long of the turn a permission request or an elicitation waited on a person.
	WaitMs int64 `json:"waitMs,omitempty"`
	// Commands are what the turn ran: terminals and execute tool calls, in order.
	Commands []ReceiptCommand `json:"commands,omitempty"`
	// Decisions are the turn's permission requests and how each was answered; Questions its
	// elicitations and how each ended.
	Decisions []ReceiptDecision `json:"decisions,omitempty"`
	Questions []ReceiptQuestion `json:"questions,omitempty"`
	// Tokens are the turn's tokens as the agent reported them in its answer to session/prompt;
	// Cost what the turn cost, the growth of the session's cost (usage_update) over the turn.
	// Both nil when the agent reported nothing.
	Tokens *Tokens      `json:"tokens,omitempty"`
	Cost   *schema.Cost `json:"cost,omitempty"`
	// MoreCommands, MoreDecisions and MoreQuestions count what was left out of each list
	// beyond MaxReceiptItems.
	MoreCommands  int `json:"moreCommands,omitempty"`
	MoreDecisions int `json:"moreDecisions,omitempty"`
	MoreQuestions int `json:"moreQuestions,omitempty"`
}

// ReceiptCommand is one command a turn ran (masked like the transcript): a terminal the agent
// created (its command line, arguments shell-quoted) or an execute tool call (its rawInput's
// command, else its title). A terminal shown by an execute call is listed once.
type ReceiptCommand struct {
	Command string `json:"command"`
	// ToolCallID is the entry id of the tool card that ran or shows the command, if any.
	ToolCallID string `json:"toolCallId,omitempty"`
	// ExitCode is nil while unknown (still running, killed by a signal, or never reported).
	ExitCode *int   `json:"exitCode,omitempty"`
	Signal   string `json:"signal,omitempty"`
}

// ReceiptDecision is one permission request of a turn and its answer.
type ReceiptDecision struct {
	Title string `json:"title"`
	// ToolCallID is the entry id of the tool card the request was about.
	ToolCallID string `json:"toolCallId,omitempty"`
	Outcome    string `json:"outcome"`          // selected | cancelled
	Option     string `json:"option,omitempty"` // the chosen option's name
	Kind       string `json:"kind,omitempty"`   // the chosen option's kind (allow_once...)
	DecidedBy  string `json:"decidedBy,omitempty"`
	Rule       string `json:"rule,omitempty"` // the words of the rule that decided (DecidedByRule)
}

// ReceiptQuestion is one elicitation of a turn and how it ended.
type ReceiptQuestion struct {
	Message string `json:"message"`
	Mode    string `json:"mode"`  // ElicitMode*
	State   string `json:"state"` // Elicit*: how it ended (open only when the turn ended first)
	// AnsweredBy says who closed it (AnsweredBy*).
	AnsweredBy string `json:"answeredBy,omitempty"`
}

// Tokens are a turn's token counts (ACP's PromptResponse usage; zero when not reported).
type Tokens struct {
	Input       int64 `json:"input"`
	Output      int64 `json:"output"`
	Thought     int64 `json:"thought,omitempty"`
	CachedRead  int64 `json:"cachedRead,omitempty"`
	CachedWrite int64 `json:"cachedWrite,omitempty"`
	Total       int64 `json:"total"`
}

// now is the session's clock (Config.Now, else time.Now).
func (s *Session) now() time.Time {
	if s.cfg.Now != nil {
		return s.cfg.Now()
	}
	return time.Now()
}

// clone copies r deeply enough that the copy can be handed out.
func (r *Receipt) clone() *Receipt {
	if r == nil {
		return nil
	}
	c := *r
	if r.Changes != nil {
		ch := *r.Changes
		ch.Files = append([]schema.ChangedFile(nil), r.Changes.Files...)
		ch.Notes = append([]string(nil), r.Changes.Notes...)
		c.Changes = &ch
	}
	c.Commands = append([]ReceiptCommand(nil), r.Commands...)
	c.Decisions = append([]ReceiptDecision(nil), r.Decisions...)
	c.Questions = append([]ReceiptQuestion(nil), r.Questions...)
	if r.Tokens != nil {
		t := *r.Tokens
		c.Tokens = &t
	}
	if r.Cost != nil {
		k := *r.Cost
		c.Cost = &k
	}
	return &c
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
// answer and what the turn's draft gathered, and drops the draft; endTurn calls it with s.mu
// held, after every open request of the turn was closed.
func (s *Session) receiptLocked(ts TurnSummary, te turnEnd, usage json.RawMessage) *Receipt {
	end, began := s.now(), te.began
	r := &Receipt{StopReason: ts.StopReason, Changes: te.changes,
		StartedAt: began.UnixMilli(), EndedAt: end.UnixMilli(), WallMs: end.Sub(began).Milliseconds(),
		Tokens: promptTokens(usage)}
	if s.draft != nil {
		s.draft.finishLocked(s, r, end)
		s.draft = nil
	}
	return r
}
