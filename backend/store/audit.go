package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// AuditQuery filters the audit log of permission decisions; zero fields filter nothing.
type AuditQuery struct {
	SessionID string
	AgentID   string
	// Folder keeps the decisions of sessions whose working folder is Folder or beneath it.
	Folder string
	// DecidedBy is one of the DecidedBy* values.
	DecidedBy string
	// Outcome is "allowed" (an allow option was chosen), "rejected" (a reject option) or
	// "cancelled" (no option: Stop, the agent withdrew it).
	Outcome string
	RuleID  string
	Since   time.Time // decided at or after
	// Limit bounds the rows (<= 0: 500), newest first.
	Limit int
}

// AuditRow is one decided permission request with the session it belongs to.
type AuditRow struct {
	Permission
	SessionTitle string
	AgentID      string
	AgentName    string
	Cwd          string
	// OptionName and OptionKind are the chosen option's, read from the options the agent offered
	// ("" when cancelled or no longer known).
	OptionName string
	OptionKind string
}

// Audit returns decided permission requests across sessions, newest decision first. Open
// requests are not in the log until they are decided. A filter value that is not one of the
// documented ones is an error.
func (s *Store) Audit(ctx context.Context, q AuditQuery) ([]AuditRow, error) {
	where := []string{"p.decided_at IS NOT NULL"}
	var args []any
	add := func(cond string, v ...any) { where = append(where, cond); args = append(args, v...) }
	if q.SessionID != "" {
		add("p.session_id = ?", q.SessionID)
	}
	if q.AgentID != "" {
		add("s.agent_id = ?", q.AgentID)
	}
	if q.Folder != "" {
		dir := strings.TrimRight(q.Folder, "/")
		add("(s.cwd = ? OR substr(s.cwd, 1, length(?) + 1) = ? || '/')", dir, dir, dir)
	}
	if q.DecidedBy != "" {
		switch q.DecidedBy {
		case DecidedByUser, DecidedByRule, DecidedByCancel, DecidedByCLI:
		default:
			return nil, fmt.Errorf("read the audit log: decided by %q is not user, rule, cancel or cli", q.DecidedBy)
		}
		add("p.decided_by = ?", q.DecidedBy)
	}
	if q.RuleID != "" {
		add("p.rule_id = ?", q.RuleID)
	}
	if !q.Since.IsZero() {
		add("p.decided_at >= ?", millis(q.Since))
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 500
	}
	switch q.Outcome {
	case "", "allowed", "rejected", "cancelled":
	default:
		return nil, fmt.Errorf("read the audit log: outcome %q is not allowed, rejected or cancelled", q.Outcome)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT p.session_id, p.request_id, p.tool_call_id, p.title,
		p.tool_kind, p.turn, p.options, p.requested_at, p.outcome, p.option_id, p.decided_by,
		p.decided_at, p.rule_id, p.rule_label, s.title, s.agent_id, s.agent_name, s.cwd
		FROM permissions p JOIN sessions s ON s.id = p.session_id
		WHERE `+strings.Join(where, " AND ")+` ORDER BY p.decided_at DESC, p.id DESC`, args...)
	if err != nil {
		return nil, fmt.Errorf("read the audit log: %w", err)
	}
	defer rows.Close()
	out := []AuditRow{}
	for rows.Next() && len(out) < limit {
		var a AuditRow
		var outcome, optionID, decidedBy, ruleID, ruleLabel sql.NullString
		var requested, decided int64
		if err := rows.Scan(&a.SessionID, &a.RequestID, &a.ToolCallID, &a.Title, &a.ToolKind, &a.Turn,
			&a.Options, &requested, &outcome, &optionID, &decidedBy, &decided, &ruleID, &ruleLabel,
			&a.SessionTitle, &a.AgentID, &a.AgentName, &a.Cwd); err != nil {
			return nil, fmt.Errorf("read the audit log: %w", err)
		}
		a.RequestedAt, a.DecidedAt = fromMillis(requested, true), fromMillis(decided, true)
		a.Outcome, a.OptionID, a.DecidedBy = outcome.String, optionID.String, decidedBy.String
		a.RuleID, a.RuleLabel = ruleID.String, ruleLabel.String
		a.OptionName, a.OptionKind = chosenOption(a.Options, a.OptionID)
		if q.Outcome == "" || q.Outcome == a.Verdict() {
			out = append(out, a)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read the audit log: %w", err)
	}
	return out, nil
}

// Verdict is what the decision came to: "allowed", "rejected", "cancelled", or "answered" for
// an option of a kind ACP does not name.
func (a AuditRow) Verdict() string {
	switch {
	case a.Outcome != PermissionSelected:
		return "cancelled"
	case strings.HasPrefix(a.OptionKind, "reject"):
		return "rejected"
	case strings.HasPrefix(a.OptionKind, "allow"):
		return "allowed"
	}
	return "answered"
}

// chosenOption finds the name and kind of option id among the options the agent offered (a JSON
// array of {id, name, kind}); "" when it is not there.
func chosenOption(options []byte, id string) (name, kind string) {
	var list []struct{ ID, Name, Kind string }
	if id == "" || json.Unmarshal(options, &list) != nil {
		return "", ""
	}
	for _, o := range list {
		if o.ID == id {
			return o.Name, o.Kind
		}
	}
	return "", ""
}
