package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrNotFound is returned (wrapped; test with errors.Is) by reads, DeleteSession and
// RenameSession when the session does not exist, and reported by writer operations that
// update a missing row.
var ErrNotFound = errors.New("not found")

// ErrClosed is reported to the error handler for writer operations queued after Store.Close;
// such operations are dropped.
var ErrClosed = errors.New("history store is closed")

// Session is one row of the sessions table: one conversation with one agent.
// ID is chosen by the caller (a UUID). Outcome is free text set by the app
// ("completed", "failed", ...); Open sets it to "interrupted" after a crash.
type Session struct {
	ID             string
	AgentID        string
	AgentName      string
	AgentSessionID string
	// AgentCmd is the command line, as typed, of a session whose agent was given as one
	// (agents.CustomID: `--agent-cmd`); "" for agents the catalog knows by id.
	AgentCmd string
	// ParentID is, for a subagent session (a child an agent started inside another session), our
	// id of that session; "" for a session a person started (migration 0013).
	ParentID string
	Cwd      string
	Dirs     []string // the folders beside Cwd (additional directories), absolute; none: nil
	// Project is the person's folder the session is for, as read back: Cwd, or for a session in
	// a worktree the folder it was started for (session_worktrees.project). CreateSession
	// ignores it.
	Project   string
	Title     string
	Outcome   string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Turn is one prompt and the agent's work on it. EndedAt is the zero time while the turn is
// open. StopReason is the agent's stop reason, or "interrupted" if the process died mid-turn.
type Turn struct {
	SessionID  string
	Turn       int
	Prompt     string
	StartedAt  time.Time
	EndedAt    time.Time
	StopReason string
	Error      string
	// Receipt is what the turn did, the engine's Receipt as JSON (nil: none was saved).
	Receipt []byte
}

// Entry is one item of a session's reduced transcript (message, thought, tool call, plan...).
// (SessionID, EntryID) identifies it; Seq orders it. Body is the JSON of the whole entry as the
// engine rendered it; the store keeps it opaque. Title and Text are full-text indexed.
type Entry struct {
	SessionID string
	EntryID   string
	Turn      int
	Seq       int
	Kind      string
	Status    string
	Title     string
	Text      string
	Body      []byte
}

// Message is one raw JSON-RPC message of a session's journal.
// Direction is "in" (agent to client) or "out" (client to agent).
type Message struct {
	SessionID string
	Direction string
	Method    string
	JSON      []byte
	At        time.Time
}

// Direction values of Message.
const (
	DirectionIn  = "in"
	DirectionOut = "out"
)

// A session's outcome says what is true of it now. While it is live it is OutcomeReady (no turn
// running, none ended yet) or OutcomeRunning (a turn is running); once a turn has ended, the
// turn's stop reason (end_turn, cancelled, ...), also while the session waits idle for the
// next; "failed" for a start that failed, "exited" for an agent that ended on its own. A
// session closed before any turn ended is OutcomeEnded; one whose process died mid-turn is
// OutcomeInterrupted (Open writes it, see markInterrupted), and one that died idle reads as
// its last stop reason (or OutcomeEnded).
const (
	OutcomeReady       = "ready"
	OutcomeRunning     = "running"
	OutcomeEnded       = "ended"
	OutcomeInterrupted = "interrupted"
)

// Summary is one row of ListSessions: the session, its number of turns and, for searches,
// a snippet of the best matching entry or title with [[ and ]] around the matched terms
// (empty for a session found only beyond the hits a search scores; see ListSessions).
type Summary struct {
	Session
	Turns   int
	Snippet string
}

// millis converts a time to the stored representation.
// querier is *sql.DB or *sql.Tx.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// queryAll runs query on db (the database, or a transaction) and scans each row it selects with
// scan, in order. An error is wrapped once with doing, what the caller was doing ("read the rules").
func queryAll[T any](ctx context.Context, db querier, doing string, scan func(*sql.Rows) (T, error), query string, args ...any) ([]T, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", doing, err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", doing, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", doing, err)
	}
	return out, nil
}

func millis(t time.Time) int64 { return t.UnixMilli() }

// fromMillis converts a stored time back; NULL (invalid) becomes the zero time.
func fromMillis(ms int64, valid bool) time.Time {
	if !valid {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}

// orNow returns t, or now() if t is the zero time.
func orNow(t time.Time, now func() time.Time) time.Time {
	if t.IsZero() {
		return now()
	}
	return t
}

// nullBytes binds a JSON payload as TEXT (so SQLite's json functions read it) or NULL if nil.
func nullBytes(b []byte) any {
	if b == nil {
		return nil
	}
	return string(b)
}

// joinDirs and splitDirs store Session.Dirs as one path per line (the hub refuses a path with a
// newline in it).
func joinDirs(dirs []string) string { return strings.Join(dirs, "\n") }

func splitDirs(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
