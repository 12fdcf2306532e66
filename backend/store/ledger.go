package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"
)

// Snapshot phases (LedgerSnapshot.Phase).
const (
	PhaseStart = "start"
	PhaseEnd   = "end"
)

// LedgerSnapshot records the snapshot of a session's folders at a turn's start or end: Trees
// maps each folder to the change ledger's tree of it (backend/changes), Notes are what the
// snapshot could not keep.
type LedgerSnapshot struct {
	SessionID string
	Turn      int
	Phase     string // Phase*
	Trees     map[string]string
	Notes     []string
	At        time.Time
}

// LedgerFile is one file a turn changed (Change is added, modified, deleted or renamed).
type LedgerFile struct {
	Root, Path, Change string
}

// LedgerRevert is one revert (or the undo of one, UndoOf) of a session's files: Request is the
// revert's request as JSON, Before and After the folders' trees just before and after it,
// Files what it wrote.
type LedgerRevert struct {
	ID        string
	SessionID string
	Turn      int
	Request   []byte
	Before    map[string]string
	After     map[string]string
	Files     []LedgerFile
	UndoOf    string
	Undone    bool
	At        time.Time
}

// SaveSnapshot queues recording a turn's snapshot (replacing one of the same phase).
func (w *Writer) SaveSnapshot(s LedgerSnapshot) {
	s.At = orNow(s.At, w.now)
	w.enqueue(&snapshotOp{s}, false)
}

// SaveTurnFiles queues recording the files turn turn of session sessionID changed (replacing
// what was recorded of that turn).
func (w *Writer) SaveTurnFiles(sessionID string, turn int, files []LedgerFile, at time.Time) {
	w.enqueue(&turnFilesOp{sessionID: sessionID, turn: turn, files: files, at: orNow(at, w.now)}, false)
}

// SaveRevert queues recording a revert; with UndoOf set, it also marks that revert undone.
func (w *Writer) SaveRevert(r LedgerRevert) {
	r.At = orNow(r.At, w.now)
	w.enqueue(&revertOp{r}, true)
}

type snapshotOp struct{ s LedgerSnapshot }

func (o *snapshotOp) String() string {
	return fmt.Sprintf("save the %s snapshot of turn %d of session %q", o.s.Phase, o.s.Turn, o.s.SessionID)
}

func (o *snapshotOp) exec(ctx context.Context, b *batchTx) error {
	trees, _ := json.Marshal(o.s.Trees)
	notes, _ := json.Marshal(orEmpty(o.s.Notes))
	_, err := b.exec(ctx, `INSERT OR REPLACE INTO ledger_snapshots (session_id, turn, phase, trees, notes, at)
		VALUES (?, ?, ?, ?, ?, ?)`, o.s.SessionID, o.s.Turn, o.s.Phase, string(trees), string(notes), millis(o.s.At))
	return err
}

type turnFilesOp struct {
	sessionID string
	turn      int
	files     []LedgerFile
	at        time.Time
}

func (o *turnFilesOp) String() string {
	return fmt.Sprintf("save the files turn %d of session %q changed", o.turn, o.sessionID)
}

func (o *turnFilesOp) exec(ctx context.Context, b *batchTx) error {
	if _, err := b.exec(ctx, `DELETE FROM ledger_files WHERE session_id = ? AND turn = ?`, o.sessionID, o.turn); err != nil {
		return err
	}
	for _, f := range o.files {
		if _, err := b.exec(ctx, `INSERT OR REPLACE INTO ledger_files (session_id, turn, root, path, change, at)
			VALUES (?, ?, ?, ?, ?, ?)`, o.sessionID, o.turn, f.Root, f.Path, f.Change, millis(o.at)); err != nil {
			return err
		}
	}
	return nil
}

type revertOp struct{ r LedgerRevert }

func (o *revertOp) String() string {
	return fmt.Sprintf("save revert %q of session %q", o.r.ID, o.r.SessionID)
}

func (o *revertOp) exec(ctx context.Context, b *batchTx) error {
	r := o.r
	before, _ := json.Marshal(r.Before)
	after, _ := json.Marshal(r.After)
	files, _ := json.Marshal(orEmpty(r.Files))
	if _, err := b.exec(ctx, `INSERT INTO ledger_reverts (id, session_id, turn, request, before, after, files,
		undo_of, undone, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`, r.ID, r.SessionID, r.Turn, string(r.Request),
		string(before), string(after), string(files), r.UndoOf, millis(r.At)); err != nil {
		return err
	}
	if r.UndoOf == "" {
		return nil
	}
	return b.execOne(ctx, `UPDATE ledger_reverts SET undone = 1 WHERE id = ? AND session_id = ?`, r.UndoOf, r.SessionID)
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// LedgerSnapshots returns session id's snapshots, by turn then phase (start first). It reads
// committed data only.
func (s *Store) LedgerSnapshots(ctx context.Context, id string) ([]LedgerSnapshot, error) {
	return queryAll(ctx, s.db, fmt.Sprintf("read snapshots of session %q", id), func(rows *sql.Rows) (LedgerSnapshot, error) {
		l := LedgerSnapshot{SessionID: id}
		var trees, notes string
		var at int64
		if err := rows.Scan(&l.Turn, &l.Phase, &trees, &notes, &at); err != nil {
			return l, err
		}
		json.Unmarshal([]byte(trees), &l.Trees) // a damaged row reads as no trees
		json.Unmarshal([]byte(notes), &l.Notes)
		l.At = fromMillis(at, true)
		return l, nil
	}, `SELECT turn, phase, trees, notes, at FROM ledger_snapshots
		WHERE session_id = ? ORDER BY turn, phase DESC`, id)
}

// LedgerReverts returns session id's reverts, oldest first.
func (s *Store) LedgerReverts(ctx context.Context, id string) ([]LedgerRevert, error) {
	return queryAll(ctx, s.db, fmt.Sprintf("read reverts of session %q", id), func(rows *sql.Rows) (LedgerRevert, error) {
		r := LedgerRevert{SessionID: id}
		var req, before, after, files string
		var at int64
		if err := rows.Scan(&r.ID, &r.Turn, &req, &before, &after, &files, &r.UndoOf, &r.Undone, &at); err != nil {
			return r, err
		}
		r.Request = []byte(req)
		json.Unmarshal([]byte(before), &r.Before)
		json.Unmarshal([]byte(after), &r.After)
		json.Unmarshal([]byte(files), &r.Files)
		r.At = fromMillis(at, true)
		return r, nil
	}, `SELECT id, turn, request, before, after, files, undo_of, undone, at
		FROM ledger_reverts WHERE session_id = ? ORDER BY at, rowid`, id)
}

// FileTouch is one turn of a saved session that changed a file.
type FileTouch struct {
	SessionID, Title, AgentName string
	Turn                        int
	Change                      string
	At                          time.Time
}

// FileTouches lists the turns that changed path beneath folder root, newest first, at most limit.
func (s *Store) FileTouches(ctx context.Context, root, path string, limit int) ([]FileTouch, error) {
	return queryAll(ctx, s.db, "sessions that changed "+path, func(rows *sql.Rows) (FileTouch, error) {
		var t FileTouch
		var at int64
		err := rows.Scan(&t.SessionID, &t.Title, &t.AgentName, &t.Turn, &t.Change, &at)
		t.At = fromMillis(at, true)
		return t, err
	}, `SELECT f.session_id, s.title, s.agent_name, f.turn, f.change, f.at
		FROM ledger_files f JOIN sessions s ON s.id = f.session_id
		WHERE f.path = ? AND f.root = ? ORDER BY f.at DESC LIMIT ?`, path, root, limit)
}

// LedgerTrees returns every tree the history still refers to (snapshots and reverts): what the
// change ledger's clean-up must keep.
func (s *Store) LedgerTrees(ctx context.Context) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT trees FROM ledger_snapshots
		UNION ALL SELECT before FROM ledger_reverts UNION ALL SELECT after FROM ledger_reverts`)
	if err != nil {
		return nil, fmt.Errorf("read the ledger's trees: %w", err)
	}
	defer rows.Close()
	seen := map[string]bool{}
	var out []string
	for rows.Next() {
		var js string
		if err := rows.Scan(&js); err != nil {
			return nil, fmt.Errorf("read the ledger's trees: %w", err)
		}
		var m map[string]string
		if json.Unmarshal([]byte(js), &m) != nil {
			continue
		}
		for _, h := range m {
			if !seen[h] {
				seen[h] = true
				out = append(out, h)
			}
		}
	}
	return out, rows.Err()
}

// SessionTurns returns session id's row and its turns without its entries (ErrNotFound, wrapped,
// when there is no such session).
func (s *Store) SessionTurns(ctx context.Context, id string) (Session, []Turn, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return Session{}, nil, fmt.Errorf("read session %q: %w", id, err)
	}
	defer tx.Rollback()
	sess, err := s.readSessionRow(ctx, tx, id)
	if err != nil {
		return Session{}, nil, fmt.Errorf("read session %q: %w", id, err)
	}
	turns, err := readTurns(ctx, tx, id)
	if err != nil {
		return Session{}, nil, fmt.Errorf("read session %q: %w", id, err)
	}
	return sess, turns, nil
}
