package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"agentdesk/backend/rules"
)

// StoredRule is a permission rule as the history keeps it: the rule, when it was made, and how
// often and when last it answered a request.
type StoredRule struct {
	rules.Rule
	CreatedAt   time.Time
	Fired       int
	LastFiredAt time.Time // zero: never fired
}

// Rules returns every permission rule in the order they were made (empty if none).
func (s *Store) Rules(ctx context.Context) ([]StoredRule, error) {
	out, err := queryAll(ctx, s.db, "read permission rules", func(rows *sql.Rows) (StoredRule, error) {
		var r StoredRule
		var created int64
		var last sql.NullInt64
		if err := rows.Scan(&r.ID, &r.AgentID, &r.Folder, &r.Kind, &r.Tool, &r.Path, &r.Command,
			&r.Decision, &r.Disabled, &created, &r.Fired, &last); err != nil {
			return r, err
		}
		r.CreatedAt, r.LastFiredAt = fromMillis(created, true), fromMillis(last.Int64, last.Valid)
		return r, nil
	}, `SELECT id, agent_id, folder, kind, tool, path, command,
		decision, disabled, created_at, fired, last_fired_at FROM rules ORDER BY position, id`)
	if err != nil {
		return nil, err
	}
	return orEmpty(out), nil
}

// SaveRules adds the rules whose ID is new (after every existing rule, in the order given) and
// replaces the match and decision of those whose ID exists (their counts and place are kept),
// all in one transaction. Every rule must have an ID and pass rules.Rule.Validate: one that does
// not fails the whole call before anything is written. It blocks until committed, like
// RenameSession.
func (s *Store) SaveRules(ctx context.Context, rs []rules.Rule) error {
	for _, r := range rs {
		if r.ID == "" {
			return fmt.Errorf("save permission rule: it has no id")
		}
		if err := r.Validate(); err != nil {
			return fmt.Errorf("save permission rule: %w", err)
		}
	}
	now := time.Now()
	if s.w != nil {
		now = s.w.now()
	}
	o := &saveRulesOp{rules: append([]rules.Rule(nil), rs...), at: now, reply: newReply()}
	return s.await(ctx, o, &o.reply)
}

// DeleteRule deletes the rule id; the decisions it made keep its words (permissions.rule_label).
// It blocks until committed and returns an error wrapping ErrNotFound when there is no such rule.
func (s *Store) DeleteRule(ctx context.Context, id string) error {
	o := &deleteRuleOp{id: id, reply: newReply()}
	return s.await(ctx, o, &o.reply)
}

// RuleFired queues counting one request the rule id answered at at (zero: the clock's now). A
// rule deleted meanwhile is not an error: nothing is counted.
func (w *Writer) RuleFired(id string, at time.Time) {
	w.enqueue(&ruleFiredOp{id: id, at: orNow(at, w.now)}, false)
}

type saveRulesOp struct {
	rules []rules.Rule
	at    time.Time
	reply
}

func (o *saveRulesOp) String() string { return fmt.Sprintf("save %d permission rule(s)", len(o.rules)) }

func (o *saveRulesOp) exec(ctx context.Context, b *batchTx) error {
	for _, r := range o.rules {
		_, err := b.exec(ctx, `INSERT INTO rules (id, position, agent_id, folder, kind, tool, path,
			command, decision, disabled, created_at)
			VALUES (?, (SELECT coalesce(max(position), 0) + 1 FROM rules), ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET agent_id = excluded.agent_id, folder = excluded.folder,
			kind = excluded.kind, tool = excluded.tool, path = excluded.path, command = excluded.command,
			decision = excluded.decision, disabled = excluded.disabled`,
			r.ID, r.AgentID, r.Folder, r.Kind, r.Tool, r.Path, r.Command, r.Decision, r.Disabled, millis(o.at))
		if err != nil {
			return err
		}
	}
	return nil
}

func (o *saveRulesOp) settle(err error) { o.settleAs(o.String(), err) }

type deleteRuleOp struct {
	id string
	reply
}

func (o *deleteRuleOp) String() string { return fmt.Sprintf("delete permission rule %q", o.id) }

func (o *deleteRuleOp) exec(ctx context.Context, b *batchTx) error {
	res, err := b.exec(ctx, `DELETE FROM rules WHERE id = ?`, o.id)
	if err != nil {
		return err
	}
	return o.found(res)
}

func (o *deleteRuleOp) settle(err error) { o.settleAs(o.String(), err) }

type ruleFiredOp struct {
	id string
	at time.Time
}

func (o *ruleFiredOp) String() string { return fmt.Sprintf("count a request rule %q answered", o.id) }

func (o *ruleFiredOp) exec(ctx context.Context, b *batchTx) error {
	_, err := b.exec(ctx, `UPDATE rules SET fired = fired + 1,
		last_fired_at = max(coalesce(last_fired_at, 0), ?) WHERE id = ?`, millis(o.at), o.id)
	return err
}

// Preference returns the value of a setting kept with the history (ok false when never set).
func (s *Store) Preference(ctx context.Context, key string) (value string, ok bool, err error) {
	err = s.db.QueryRowContext(ctx, `SELECT value FROM preferences WHERE key = ?`, key).Scan(&value)
	switch {
	case err == sql.ErrNoRows:
		return "", false, nil
	case err != nil:
		return "", false, fmt.Errorf("read setting %q: %w", key, err)
	}
	return value, true, nil
}

// SetPreference sets a setting kept with the history; it blocks until committed.
func (s *Store) SetPreference(ctx context.Context, key, value string) error {
	o := &setPreferenceOp{key: key, value: value, reply: newReply()}
	return s.await(ctx, o, &o.reply)
}

type setPreferenceOp struct {
	key, value string
	reply
}

func (o *setPreferenceOp) String() string { return fmt.Sprintf("save setting %q", o.key) }

func (o *setPreferenceOp) exec(ctx context.Context, b *batchTx) error {
	_, err := b.exec(ctx, `INSERT INTO preferences (key, value) VALUES (?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, o.key, o.value)
	return err
}

func (o *setPreferenceOp) settle(err error) { o.settleAs(o.String(), err) }
