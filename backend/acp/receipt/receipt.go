package receipt

import (
	"strconv"
	"strings"

	"agentdesk/backend/acp/schema"
)

// MaxItems bounds each list of a receipt (commands, decisions, questions): an agent that runs
// commands or asks without end must not grow a turn's receipt (and its row in the history)
// without limit. What is beyond the bound is counted in the receipt's More* fields.
const MaxItems = 200

// MaxCommandLine bounds a command line as a receipt keeps it, in bytes.
const MaxCommandLine = 4 << 10

// Receipt is what a turn did: it rides on the turn's turn_end event and its TurnSummary, and the
// history keeps it with the turn (as JSON: the field names are stored and must not change).
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
	Commands []Command `json:"commands,omitempty"`
	// Decisions are the turn's permission requests and how each was answered; Questions its
	// elicitations and how each ended.
	Decisions []Decision `json:"decisions,omitempty"`
	Questions []Question `json:"questions,omitempty"`
	// Tokens are the turn's tokens as the agent reported them in its answer to session/prompt;
	// Cost what the turn cost, the growth of the session's cost (usage_update) over the turn.
	// Both nil when the agent reported nothing.
	Tokens *Tokens      `json:"tokens,omitempty"`
	Cost   *schema.Cost `json:"cost,omitempty"`
	// MoreCommands, MoreDecisions and MoreQuestions count what was left out of each list
	// beyond MaxItems.
	MoreCommands  int `json:"moreCommands,omitempty"`
	MoreDecisions int `json:"moreDecisions,omitempty"`
	MoreQuestions int `json:"moreQuestions,omitempty"`
}

// Command is one command a turn ran (masked like the transcript): a terminal the agent created
// (its command line, arguments shell-quoted) or an execute tool call (its rawInput's command,
// else its title). A terminal shown by an execute call is listed once.
type Command struct {
	Command string `json:"command"`
	// ToolCallID is the entry id of the tool card that ran or shows the command, if any.
	ToolCallID string `json:"toolCallId,omitempty"`
	// ExitCode is nil while unknown (still running, killed by a signal, or never reported).
	ExitCode *int   `json:"exitCode,omitempty"`
	Signal   string `json:"signal,omitempty"`
}

// Decision is one permission request of a turn and its answer.
type Decision struct {
	Title string `json:"title"`
	// ToolCallID is the entry id of the tool card the request was about.
	ToolCallID string `json:"toolCallId,omitempty"`
	Outcome    string `json:"outcome"`          // selected | cancelled
	Option     string `json:"option,omitempty"` // the chosen option's name
	Kind       string `json:"kind,omitempty"`   // the chosen option's kind (allow_once...)
	DecidedBy  string `json:"decidedBy,omitempty"`
	Rule       string `json:"rule,omitempty"` // the words of the rule that decided (acp.DecidedByRule)
}

// Question is one elicitation of a turn and how it ended.
type Question struct {
	Message string `json:"message"`
	Mode    string `json:"mode"`  // acp.ElicitMode*
	State   string `json:"state"` // acp.Elicit*: how it ended (open only when the turn ended first)
	// AnsweredBy says who closed it (acp.AnsweredBy*).
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

// Clone copies r deeply enough that the copy can be handed to another goroutine; nil stays nil.
func (r *Receipt) Clone() *Receipt {
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
	c.Commands = append([]Command(nil), r.Commands...)
	c.Decisions = append([]Decision(nil), r.Decisions...)
	c.Questions = append([]Question(nil), r.Questions...)
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

// CostText is how a cost reads wherever agentdesk writes one as text (the command line's and the
// exports' receipts; frontend/src/lib/format.ts's formatCost words it the same way): "$0.0042",
// "$1.50", "$0.00", "0.75 EUR"; four decimals below one, and "<$0.0001" below what those show.
func CostText(c schema.Cost) string {
	num := strconv.FormatFloat(c.Amount, 'f', 2, 64)
	switch {
	case c.Amount > 0 && c.Amount < 0.00005:
		num = "<0.0001"
	case c.Amount > 0 && c.Amount < 1:
		num = strconv.FormatFloat(c.Amount, 'f', 4, 64)
	}
	if c.Currency == "USD" {
		return strings.Replace("$"+num, "$<", "<$", 1)
	}
	return num + " " + c.Currency
}
