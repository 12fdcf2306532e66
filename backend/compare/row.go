package compare

import (
	"encoding/json"

	"agentdesk/backend/acp/receipt"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/store"
)

// Row is one session of a comparison as the compare view and `agentdesk compare` show it.
type Row struct {
	ID        string `json:"id"`
	Agent     string `json:"agent"` // the agent's name
	AgentID   string `json:"agentId"`
	Worktree  string `json:"worktree"`
	Branch    string `json:"branch"`
	Discarded bool   `json:"discarded,omitempty"` // its worktree was discarded: no files to show
	// State is the live session's state (acp.State*), or "saved" when it is not live here.
	State string `json:"state"`
	// Files, Added and Removed are what it changed in its worktree against its base.
	Files   int `json:"files"`
	Added   int `json:"added"`
	Removed int `json:"removed"`
	// Check is its latest check (nil: none ran yet); Checking: one runs now.
	Check    *store.Check `json:"check,omitempty"`
	Checking bool         `json:"checking,omitempty"`
	Summary
	// Error says what could not be read of it (its worktree's state, say).
	Error string `json:"error,omitempty"`
}

// Summary is what a session's turns did, summed from their receipts.
type Summary struct {
	Turns      int               `json:"turns"`
	StopReason string            `json:"stopReason,omitempty"` // the last turn's
	WallMs     int64             `json:"wallMs"`
	WaitMs     int64             `json:"waitMs"` // of WallMs, waiting on the person
	Tokens     int64             `json:"tokens"` // as the agent reported them (0: none)
	Cost       []schema.Cost     `json:"cost"`   // per currency, as the agent reported it
	Commands   []receipt.Command `json:"commands"`
}

// Summarize sums the receipts of turns (those without one count as turns only).
func Summarize(turns []store.Turn) Summary {
	s := Summary{Turns: len(turns), Cost: []schema.Cost{}, Commands: []receipt.Command{}}
	for _, t := range turns {
		s.StopReason = t.StopReason
		var r receipt.Receipt
		if len(t.Receipt) == 0 || json.Unmarshal(t.Receipt, &r) != nil {
			continue
		}
		s.WallMs += r.WallMs
		s.WaitMs += r.WaitMs
		if r.Tokens != nil {
			s.Tokens += r.Tokens.Total
		}
		if r.Cost != nil {
			s.Cost = addCost(s.Cost, *r.Cost)
		}
		s.Commands = append(s.Commands, r.Commands...)
	}
	return s
}

// addCost adds c to the sum of its currency.
func addCost(sum []schema.Cost, c schema.Cost) []schema.Cost {
	for i := range sum {
		if sum[i].Currency == c.Currency {
			sum[i].Amount += c.Amount
			return sum
		}
	}
	return append(sum, c)
}
