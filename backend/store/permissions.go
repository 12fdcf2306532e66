package store

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Permission is one row of the permissions table: an agent's request to run a tool call and,
// once decided, how. (SessionID, RequestID) identifies it. RequestID is the JSON-RPC id
// rendered as text (0, "p-1"); ids repeat across sessions. ToolCallID is the entry id of the
// tool card the request is about; Options is the JSON array of {id, name, kind} as the agent
// gave it, kept opaque. Outcome, OptionID, DecidedBy and DecidedAt are empty (zero) while
// the request is open.
type Permission struct {
	SessionID   string
	RequestID   string
	ToolCallID  string
	Title       string
	ToolKind    string // the ACP kind of the tool call (read, edit, execute...), "" when unknown
	Turn        int
	Options     []byte
	RequestedAt time.Time
	Outcome     string
	OptionID    string
	DecidedBy   string
	DecidedAt   time.Time
	// RuleID and RuleLabel name the rule that decided (DecidedByRule only): its id and its words
	// as they were then ("reads in ~/src/app for Claude Code"), kept should it change later.
	RuleID    string
	RuleLabel string
}

// Values of Permission.Outcome (the ACP outcome of the request).
const (
	PermissionSelected  = "selected"
	PermissionCancelled = "cancelled"
)

// Values of Permission.DecidedBy: the user answered, one of agentdesk's permission rules
// answered, the turn was cancelled with the request open (Stop), or the CLI's --permissions
// allow|reject answered.
const (
	DecidedByUser   = "user"
	DecidedByRule   = "rule"
	DecidedByCancel = "cancel"
	DecidedByCLI    = "cli"
)

// RequestPermission queues recording a permission request. A zero RequestedAt is the clock's
// now; p.Options is copied (nil is stored as []). A request already recorded for the session
// with the same RequestID (an agent restarted for the session numbers its requests from 0
// again) is replaced, and the new row sorts last. A request given with an Outcome is recorded
// as decided (DecidedBy is then required and a zero DecidedAt is the clock's now) and is
// committed without waiting for the batch delay, like DecidePermission. A missing session, or
// an Outcome or DecidedBy other than the constants above, is a reported error.
func (w *Writer) RequestPermission(p Permission) {
	p.Options = bytes.Clone(p.Options)
	p.RequestedAt = orNow(p.RequestedAt, w.now)
	decided := p.Outcome != ""
	if decided {
		p.DecidedAt = orNow(p.DecidedAt, w.now)
	}
	w.enqueue(&requestPermissionOp{p}, decided)
}

// DecidePermission queues recording the decision on the request requestID of session
// sessionID: its outcome (PermissionSelected or PermissionCancelled), the option chosen
// (empty if none), who decided (DecidedByUser, DecidedByCancel or DecidedByCLI; a rule's
// decision is recorded whole by RequestPermission) and when
// (zero: the clock's now). It replaces an earlier decision. It is committed without waiting
// for the batch delay, like EndTurn. A missing request, or a value outside those constants,
// is a reported error.
func (w *Writer) DecidePermission(sessionID, requestID, outcome, optionID, decidedBy string, at time.Time) {
	w.enqueue(&decidePermissionOp{sessionID: sessionID, requestID: requestID, outcome: outcome,
		optionID: optionID, decidedBy: decidedBy, at: orNow(at, w.now)}, true)
}

// Permissions returns a session's permission requests in the order they were recorded
// (empty if the session has none or does not exist).
func (s *Store) Permissions(ctx context.Context, sessionID string) ([]Permission, error) {
	return queryAll(ctx, s.db, fmt.Sprintf("read permissions of session %q", sessionID), func(rows *sql.Rows) (Permission, error) {
		p := Permission{SessionID: sessionID}
		var requested int64
		var outcome, optionID, decidedBy, ruleID, ruleLabel sql.NullString
		var decided sql.NullInt64
		if err := rows.Scan(&p.RequestID, &p.ToolCallID, &p.Title, &p.ToolKind, &p.Turn, &p.Options,
			&requested, &outcome, &optionID, &decidedBy, &decided, &ruleID, &ruleLabel); err != nil {
			return p, err
		}
		p.RequestedAt, p.DecidedAt = fromMillis(requested, true), fromMillis(decided.Int64, decided.Valid)
		p.Outcome, p.OptionID, p.DecidedBy = outcome.String, optionID.String, decidedBy.String
		p.RuleID, p.RuleLabel = ruleID.String, ruleLabel.String
		return p, nil
	}, `SELECT request_id, tool_call_id, title, tool_kind, turn, options,
		requested_at, outcome, option_id, decided_by, decided_at, rule_id, rule_label
		FROM permissions WHERE session_id = ? ORDER BY id`, sessionID)
}

type requestPermissionOp struct{ p Permission }

func (o *requestPermissionOp) String() string {
	return fmt.Sprintf("record permission request %s of session %q", o.p.RequestID, o.p.SessionID)
}

func (o *requestPermissionOp) exec(ctx context.Context, b *batchTx) error {
	p := o.p
	options := "[]"
	if p.Options != nil {
		options = string(p.Options)
	}
	var decided sql.NullInt64
	if p.Outcome != "" {
		decided = sql.NullInt64{Int64: millis(p.DecidedAt), Valid: true}
	}
	// OR REPLACE deletes the earlier row with the same request id, so the new one gets a new id.
	_, err := b.exec(ctx, `INSERT OR REPLACE INTO permissions (session_id, turn, request_id,
		tool_call_id, title, tool_kind, options, requested_at, outcome, option_id, decided_by, decided_at,
		rule_id, rule_label)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		p.SessionID, p.Turn, p.RequestID, p.ToolCallID, p.Title, p.ToolKind, options, millis(p.RequestedAt),
		nullString(p.Outcome), nullString(p.OptionID), nullString(p.DecidedBy), decided,
		nullString(p.RuleID), nullString(p.RuleLabel))
	return err
}

type decidePermissionOp struct {
	sessionID, requestID, outcome, optionID, decidedBy string
	at                                                 time.Time
}

func (o *decidePermissionOp) String() string {
	return fmt.Sprintf("record decision %q by %q on permission request %s of session %q",
		o.outcome, o.decidedBy, o.requestID, o.sessionID)
}

func (o *decidePermissionOp) exec(ctx context.Context, b *batchTx) error {
	return b.execOne(ctx, `UPDATE permissions SET outcome = ?, option_id = ?, decided_by = ?,
		decided_at = ? WHERE session_id = ? AND request_id = ?`,
		nullString(o.outcome), nullString(o.optionID), nullString(o.decidedBy), millis(o.at),
		o.sessionID, o.requestID)
}

// nullString binds "" as NULL.
func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}
