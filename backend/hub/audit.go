package hub

import (
	"context"
	"time"

	"agentdesk/backend/store"
)

// AuditItem is one decided permission request as the audit view and `agentdesk audit` show it.
type AuditItem struct {
	SessionID    string `json:"sessionId"`
	SessionTitle string `json:"sessionTitle"`
	AgentID      string `json:"agentId"`
	AgentName    string `json:"agentName"`
	Cwd          string `json:"cwd"`
	RequestID    string `json:"requestId"`
	ToolCallID   string `json:"toolCallId"` // the entry id of the tool card it guarded
	Title        string `json:"title"`
	ToolKind     string `json:"toolKind"`
	Turn         int    `json:"turn"`
	// Verdict is allowed, rejected, cancelled or answered (an option of no known kind).
	Verdict    string `json:"verdict"`
	OptionName string `json:"optionName"`
	OptionKind string `json:"optionKind"`
	// DecidedBy is who decided, in the audit's words: person | rule | stop | cli.
	DecidedBy   string `json:"decidedBy"`
	RuleID      string `json:"ruleId"`
	RuleLabel   string `json:"ruleLabel"`
	RequestedAt string `json:"requestedAt"` // RFC 3339
	DecidedAt   string `json:"decidedAt"`   // RFC 3339
}

// AuditDecidedBy turns the store's DecidedBy* into the audit's words (person, rule, stop, cli)
// and back: the window's data-decided-by and the CLI's column use these.
var AuditDecidedBy = map[string]string{store.DecidedByUser: "person", store.DecidedByRule: "rule",
	store.DecidedByCancel: "stop", store.DecidedByCLI: "cli"}

// Audit reads the audit log (store.Audit), newest first, with secret values masked. q.DecidedBy
// may be given in the audit's words.
func (h *Hub) Audit(ctx context.Context, q store.AuditQuery) ([]AuditItem, error) {
	if h.store == nil {
		return []AuditItem{}, nil
	}
	for k, v := range AuditDecidedBy {
		if q.DecidedBy == v {
			q.DecidedBy = k
		}
	}
	rows, err := h.store.Audit(ctx, q)
	if err != nil {
		return nil, err
	}
	mask := h.agents.Masker()
	out := make([]AuditItem, 0, len(rows))
	for _, r := range rows {
		out = append(out, AuditItem{SessionID: r.SessionID, SessionTitle: mask.Mask(r.SessionTitle), AgentID: r.AgentID,
			AgentName: r.AgentName, Cwd: r.Cwd, RequestID: r.RequestID, ToolCallID: r.ToolCallID, Title: mask.Mask(r.Title),
			ToolKind: r.ToolKind, Turn: r.Turn, Verdict: r.Verdict(), OptionName: mask.Mask(r.OptionName), OptionKind: r.OptionKind,
			DecidedBy: AuditDecidedBy[r.DecidedBy], RuleID: r.RuleID, RuleLabel: mask.Mask(r.RuleLabel),
			RequestedAt: r.RequestedAt.Format(time.RFC3339), DecidedAt: r.DecidedAt.Format(time.RFC3339)})
	}
	return out, nil
}
