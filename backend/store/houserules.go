package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// HouseRules returns the person's house rules for agentID in folder ("" when there are none)
// and when they were last saved (zero: never). folder is matched exactly: the caller cleans it.
func (s *Store) HouseRules(ctx context.Context, agentID, folder string) (string, time.Time, error) {
	var text string
	var at int64
	err := s.db.QueryRowContext(ctx, `SELECT text, updated_at FROM house_rules WHERE agent_id = ? AND folder = ?`,
		agentID, folder).Scan(&text, &at)
	switch {
	case err == sql.ErrNoRows:
		return "", time.Time{}, nil
	case err != nil:
		return "", time.Time{}, fmt.Errorf("read the house rules of %s in %s: %w", agentID, folder, err)
	}
	return text, fromMillis(at, true), nil
}

// SetHouseRules saves text as the house rules for agentID in folder; "" deletes them. The caller
// bounds text (the hub: acp.MaxSystemPrompt). It blocks until committed, like SetPreference.
func (s *Store) SetHouseRules(ctx context.Context, agentID, folder, text string) error {
	now := time.Now()
	if s.w != nil {
		now = s.w.now()
	}
	o := &setHouseRulesOp{agentID: agentID, folder: folder, text: text, at: now, reply: newReply()}
	return s.await(ctx, o, &o.reply)
}

type setHouseRulesOp struct {
	agentID, folder, text string
	at                    time.Time
	reply
}

func (o *setHouseRulesOp) String() string {
	return fmt.Sprintf("save the house rules of %s in %s", o.agentID, o.folder)
}

func (o *setHouseRulesOp) exec(ctx context.Context, b *batchTx) error {
	if o.text == "" {
		_, err := b.exec(ctx, `DELETE FROM house_rules WHERE agent_id = ? AND folder = ?`, o.agentID, o.folder)
		return err
	}
	_, err := b.exec(ctx, `INSERT INTO house_rules (agent_id, folder, text, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (agent_id, folder) DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at`,
		o.agentID, o.folder, o.text, millis(o.at))
	return err
}

func (o *setHouseRulesOp) settle(err error) { o.settleAs(o.String(), err) }
