package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// Link kinds (Link.Kind): how a session came from its parent.
const (
	LinkFork          = "fork"
	LinkRerun         = "rerun"
	LinkContinueAgent = "continue-agent"
)

// Link says a session (Child) came from another (Parent) at the parent's turn ParentTurn.
// ParentTitle and ParentAgent are the parent's title and agent name when it branched, kept so
// that the link still reads after the parent is deleted (the child is never deleted with it).
type Link struct {
	Child       string
	Parent      string
	ParentTurn  int
	Kind        string // Link*
	ParentTitle string
	ParentAgent string
	CreatedAt   time.Time
}

// Links is what the history shows of one session's links: where it came from (Parent, nil
// for none; ParentDeleted when that session is gone) and the sessions that came from it
// (Children, oldest first).
type Links struct {
	Parent        *Link
	ParentDeleted bool
	Children      []string
}

// LinkSession queues recording that l.Child came from l.Parent. It must be queued after the
// child's row (CreateSession or SaveCopy): a missing child is a reported error. A second link
// of the same child replaces the first. An unknown kind is a reported error (the table checks).
func (w *Writer) LinkSession(l Link) {
	l.CreatedAt = orNow(l.CreatedAt, w.now)
	w.enqueue(&linkOp{l}, false)
}

type linkOp struct{ l Link }

func (o *linkOp) String() string {
	return fmt.Sprintf("link session %q to its parent %q (%s)", o.l.Child, o.l.Parent, o.l.Kind)
}

func (o *linkOp) exec(ctx context.Context, b *batchTx) error {
	l := o.l
	_, err := b.exec(ctx, `INSERT OR REPLACE INTO session_links (child, parent, parent_turn, kind, parent_title,
		parent_agent, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		l.Child, l.Parent, l.ParentTurn, l.Kind, l.ParentTitle, l.ParentAgent, millis(l.CreatedAt))
	return err
}

// SessionLinks returns the links of the sessions ids, by id; a session without any link is
// left out. It reads committed data only.
func (s *Store) SessionLinks(ctx context.Context, ids []string) (map[string]Links, error) {
	out := map[string]Links{}
	if len(ids) == 0 {
		return out, nil
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, fmt.Errorf("session links: %w", err)
	}
	// up: the parent link of a listed session; down: a session that came from a listed one.
	rows, err := s.db.QueryContext(ctx, `SELECT 1, l.child, l.parent, l.parent_turn, l.kind, l.parent_title,
		l.parent_agent, l.created_at, NOT EXISTS (SELECT 1 FROM sessions p WHERE p.id = l.parent)
		FROM session_links l WHERE l.child IN (SELECT value FROM json_each(?1))
		UNION ALL SELECT 0, l.child, l.parent, l.parent_turn, l.kind, '', '', l.created_at, 0
		FROM session_links l WHERE l.parent IN (SELECT value FROM json_each(?1))
		ORDER BY 8, 2`, string(list))
	if err != nil {
		return nil, fmt.Errorf("session links: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var l Link
		var at int64
		var up, gone bool
		if err := rows.Scan(&up, &l.Child, &l.Parent, &l.ParentTurn, &l.Kind, &l.ParentTitle, &l.ParentAgent, &at, &gone); err != nil {
			return nil, fmt.Errorf("session links: %w", err)
		}
		l.CreatedAt = fromMillis(at, true)
		if up {
			c := out[l.Child]
			c.Parent, c.ParentDeleted = &l, gone
			out[l.Child] = c
		} else {
			p := out[l.Parent]
			p.Children = append(p.Children, l.Child)
			out[l.Parent] = p
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("session links: %w", err)
	}
	return out, nil
}
