package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Comparison is one task given to several agents at once: its members are the sessions it
// started, in the order given (issue 33).
type Comparison struct {
	ID        string    `json:"id"`
	Cwd       string    `json:"cwd"`
	Prompt    string    `json:"prompt"`
	Check     string    `json:"check"` // the check command run in each worktree after a turn ("" for none)
	CreatedAt time.Time `json:"createdAt"`
	Members   []string  `json:"members"`
}

// Check is one run of a comparison's check command in a session's worktree after its turn.
type Check struct {
	Turn       int    `json:"turn"`
	Command    string `json:"command"`
	ExitCode   int    `json:"exitCode"` // -1: it did not exit by itself (killed, timed out, did not start)
	Output     string `json:"output"`   // its last 64 KiB, standard output and error together
	DurationMs int64  `json:"durationMs"`
	Error      string `json:"error,omitempty"` // why it did not run or finish, in words
}

// CreateComparison queues recording comparison c with its members. Queue it after the members'
// CreateSession; a missing session is a reported error.
func (w *Writer) CreateComparison(c Comparison) {
	w.enqueue(&comparisonOp{c: c}, false)
}

// SaveCheck queues recording a check of session sessionID (replacing one of the same turn).
func (w *Writer) SaveCheck(sessionID string, c Check) {
	w.enqueue(&checkOp{sessionID: sessionID, c: c}, false)
}

type comparisonOp struct{ c Comparison }

func (o *comparisonOp) String() string { return fmt.Sprintf("record comparison %q", o.c.ID) }

func (o *comparisonOp) exec(ctx context.Context, b *batchTx) error {
	if _, err := b.exec(ctx, `INSERT INTO comparisons (id, cwd, prompt, check_command, created_at) VALUES (?, ?, ?, ?, ?)`,
		o.c.ID, o.c.Cwd, o.c.Prompt, o.c.Check, millis(o.c.CreatedAt)); err != nil {
		return err
	}
	for i, id := range o.c.Members {
		if _, err := b.exec(ctx, `INSERT INTO comparison_members (comparison_id, session_id, position) VALUES (?, ?, ?)`, o.c.ID, id, i); err != nil {
			return err
		}
	}
	return nil
}

type checkOp struct {
	sessionID string
	c         Check
}

func (o *checkOp) String() string {
	return fmt.Sprintf("record the check of turn %d of session %q", o.c.Turn, o.sessionID)
}

func (o *checkOp) exec(ctx context.Context, b *batchTx) error {
	_, err := b.exec(ctx, `INSERT INTO session_checks (session_id, turn, command, exit_code, output, duration_ms, error)
		VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (session_id, turn) DO UPDATE SET command = excluded.command,
		exit_code = excluded.exit_code, output = excluded.output, duration_ms = excluded.duration_ms, error = excluded.error`,
		o.sessionID, o.c.Turn, o.c.Command, o.c.ExitCode, o.c.Output, o.c.DurationMs, o.c.Error)
	return err
}

// Comparison reads comparison id with its members (those still in the history), or
// ErrNotFound. It reads committed rows only.
func (s *Store) Comparison(ctx context.Context, id string) (Comparison, error) {
	c := Comparison{ID: id}
	var created int64
	err := s.db.QueryRowContext(ctx, `SELECT cwd, prompt, check_command, created_at FROM comparisons WHERE id = ?`, id).
		Scan(&c.Cwd, &c.Prompt, &c.Check, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return Comparison{}, fmt.Errorf("comparison %q: %w", id, ErrNotFound)
	} else if err != nil {
		return Comparison{}, fmt.Errorf("read comparison %q: %w", id, err)
	}
	c.CreatedAt = fromMillis(created, true)
	c.Members, err = queryAll(ctx, s.db, "read comparison "+id, func(rows *sql.Rows) (sid string, err error) {
		return sid, rows.Scan(&sid)
	}, `SELECT session_id FROM comparison_members WHERE comparison_id = ? ORDER BY position`, id)
	return c, err
}

// ComparisonOf is the id of the comparison session id is a member of, and false for none.
func (s *Store) ComparisonOf(ctx context.Context, sessionID string) (string, bool, error) {
	var id string
	err := s.db.QueryRowContext(ctx, `SELECT comparison_id FROM comparison_members WHERE session_id = ?`, sessionID).Scan(&id)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return "", false, nil
	case err != nil:
		return "", false, fmt.Errorf("read the comparison of session %q: %w", sessionID, err)
	}
	return id, true, nil
}

// LatestCheck is the check of session sessionID's latest checked turn, and false for none.
func (s *Store) LatestCheck(ctx context.Context, sessionID string) (Check, bool, error) {
	var c Check
	err := s.db.QueryRowContext(ctx, `SELECT turn, command, exit_code, output, duration_ms, error FROM session_checks
		WHERE session_id = ? ORDER BY turn DESC LIMIT 1`, sessionID).Scan(&c.Turn, &c.Command, &c.ExitCode, &c.Output, &c.DurationMs, &c.Error)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return Check{}, false, nil
	case err != nil:
		return Check{}, false, fmt.Errorf("read the check of session %q: %w", sessionID, err)
	}
	return c, true, nil
}
