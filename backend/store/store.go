package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Store is an open history database. It is safe for concurrent use. Writes go through
// Writer; the other methods read (or, for DeleteSession and RenameSession, wait on the writer).
type Store struct {
	path      string
	scoreHits int // see defaultScoreHits
	db        *sql.DB
	live      *liveness
	settle    bool // read outcomes as markInterrupted would leave them (see settle.go)
	w         *Writer
	closeOnce sync.Once
	closeErr  error
	now       func() time.Time
	owners    owners // the sessions live in this Store (owner.go)
}

// config holds Open's options.
type config struct {
	now       func() time.Time
	maxDelay  time.Duration
	maxOps    int
	onError   func(error)
	onCommit  func(ops int) // WithCommitObserver
	scoreHits int           // see defaultScoreHits
}

// Option configures Open.
type Option func(*config)

// WithClock sets the clock used for timestamps the store fills in (zero CreatedAt, StartedAt,
// At..., updated_at bumps, interrupted turns). now is called from any goroutine.
// The default is time.Now.
func WithClock(now func() time.Time) Option {
	return func(c *config) {
		if now != nil {
			c.now = now
		}
	}
}

// WithBatch sets when the writer commits: maxDelay after the first queued operation (default
// 50 ms) or as soon as maxOps operations are queued (default 2000), whichever comes first.
// Non-positive values keep the default.
func WithBatch(maxDelay time.Duration, maxOps int) Option {
	return func(c *config) {
		if maxDelay > 0 {
			c.maxDelay = maxDelay
		}
		if maxOps > 0 {
			c.maxOps = maxOps
		}
	}
}

// WithErrorHandler sets the function told about failed writes (each error names the
// operation and its ids; the operation is lost). It is called on the writer goroutine (or,
// for an operation queued after Close, on the caller's): it must be safe for concurrent use,
// return quickly and not call Writer.Flush or Store.Close. The default logs with log.Printf.
func WithErrorHandler(fn func(error)) Option {
	return func(c *config) {
		if fn != nil {
			c.onError = fn
		}
	}
}

// WithCommitObserver sets a function called on the writer goroutine after each batch has
// finished (committed or failed), with its number of operations: for metrics, and for tests
// that wait for a batch without sleeping. The writer waits for it, so a slow observer makes a
// slow store; that is how tests prove the engine never waits for the database.
func WithCommitObserver(fn func(ops int)) Option {
	return func(c *config) { c.onCommit = fn }
}

// withScoreHits lets tests exceed the number of hits a search scores with few entries.
func withScoreHits(n int) Option {
	return func(c *config) { c.scoreHits = n }
}

// DefaultPath returns where the history lives: $AGENTDESK_DB if set, else
// $XDG_DATA_HOME/agentdesk/agentdesk.db (if XDG_DATA_HOME is an absolute path, as the XDG
// spec requires), else ~/.local/share/agentdesk/agentdesk.db. It creates nothing.
func DefaultPath() (string, error) {
	if p := os.Getenv("AGENTDESK_DB"); p != "" {
		return p, nil
	}
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "agentdesk", "agentdesk.db"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("locate history database: %w", err)
	}
	return filepath.Join(home, ".local", "share", "agentdesk", "agentdesk.db"), nil
}

// Open opens (creating if needed) the history database at path, migrates it, marks turns a
// crash left open as interrupted and starts the writer goroutine. Turns are only marked when
// no other Store (in any process) has the file open, since they may be that Store's running
// turns; every Store holds a shared flock on "<path>.lock" to tell. Open blocks on the
// database (up to the 5 s busy timeout if another process holds the write lock). A file that
// exists but is not an agentdesk database yields an error saying so; the file is left
// untouched (OpenOrRecover moves it aside instead). Errors name the file and, for the causes
// a user can fix (permissions, a read-only disk, a full disk, a lock held by another
// program), say what to do. The caller must Close the store.
func Open(ctx context.Context, path string, opts ...Option) (*Store, error) {
	return open(ctx, path, newConfig(opts))
}

// newConfig applies opts to the defaults.
func newConfig(opts []Option) config {
	cfg := config{now: time.Now, maxDelay: 50 * time.Millisecond, maxOps: 2000, scoreHits: defaultScoreHits,
		onError: func(err error) { log.Printf("agentdesk history: %v", err) }}
	for _, o := range opts {
		o(&cfg)
	}
	return cfg
}

// open is Open with its options applied; it wraps every error but an empty path with
// openError.
func open(ctx context.Context, path string, cfg config) (*Store, error) {
	if path == "" {
		return nil, errors.New("open history database: empty path")
	}
	if err := createFile(path); err != nil {
		return nil, openError(path, err)
	}
	if err := checkHeader(path); err != nil {
		return nil, openError(path, err)
	}
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		return nil, openError(path, err)
	}
	db.SetMaxOpenConns(1) // our goroutines never contend for SQLite's write lock
	live, err := prepare(ctx, db, path, cfg.now)
	if err != nil {
		db.Close()
		return nil, openError(path, explainBusy(path, err))
	}
	onError := cfg.onError
	cfg.onError = func(err error) { onError(explainBusy(path, err)) }
	s := &Store{path: path, scoreHits: cfg.scoreHits, db: db, live: live, now: cfg.now}
	s.w = newWriter(db, cfg)
	return s, nil
}

// Close commits everything queued on the writer, stops it and closes the database. It blocks
// until then and returns the first error of those final commits or of closing the file.
// Calling it again returns the same result.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		var werr error
		if s.w != nil { // nil when opened read-only
			werr = s.w.close()
		}
		werr = errors.Join(werr, s.owners.releaseAll())
		if err := s.db.Close(); err != nil {
			werr = errors.Join(werr, err)
		}
		if s.live != nil {
			if err := s.live.release(); err != nil {
				werr = errors.Join(werr, err)
			}
		}
		if werr != nil {
			s.closeErr = fmt.Errorf("close history database %q: %w", s.path, werr)
		}
	})
	return s.closeErr
}

// Path returns the path given to Open.
func (s *Store) Path() string { return s.path }

// Writer returns the store's single writer. It is the same value on every call; nil for a
// store opened with OpenReadOnly.
func (s *Store) Writer() *Writer { return s.w }

// createFile creates path's folder (0700) and an empty file (0600) if they are missing, so
// SQLite (which would use 0644) never creates the file itself. Existing files are not touched.
func createFile(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return f.Close()
}

// sqliteMagic starts every SQLite database file.
const sqliteMagic = "SQLite format 3\x00"

// checkHeader refuses a non-empty file that does not start like an SQLite database before
// SQLite opens it: SQLite would delete a -wal file lying next to it when closing.
func checkHeader(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, len(sqliteMagic))
	n, err := io.ReadFull(f, head)
	switch {
	case n == 0 && errors.Is(err, io.EOF):
		return nil // a new, empty file
	case err != nil && !errors.Is(err, io.ErrUnexpectedEOF):
		return err
	case string(head[:n]) != sqliteMagic:
		return fmt.Errorf("%w: it is not an SQLite file", errInvalid)
	}
	return nil
}

// fileURI is path as an SQLite "file:" URI, before its query: the characters a URI gives a
// meaning to are escaped.
func fileURI(path string) string {
	return "file:" + strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
}

// dsn builds the modernc.org/sqlite URI for path; the pragmas apply to every connection.
// _txlock=immediate makes writing transactions take the write lock at BEGIN, so busy_timeout
// covers them; read-only transactions stay deferred. The 32 MiB page cache (allocated as
// used; SQLite's default is 2 MiB) keeps a search's index and row pages in memory between
// queries: it halves search times on 100,000 entries. temp_store(MEMORY) keeps statement
// journals (an upsert with its search-index triggers opens one per entry) out of temp files:
// a flood wrote them with a syscall per page. journal_mode is not among the pragmas:
// it is written into the file, so prepare sets it once the file is known to be ours.
func dsn(path string) string {
	return fileURI(path) + "?_pragma=busy_timeout(5000)&_pragma=cache_size(-32768)" +
		"&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)&_pragma=temp_store(MEMORY)&_txlock=immediate"
}

// prepare checks the file is ours, switches it to WAL, migrates it and, if no other Store
// has it open, marks the turns a crashed process left open. It returns the liveness lock the
// Store keeps.
func prepare(ctx context.Context, db *sql.DB, path string, now func() time.Time) (*liveness, error) {
	if err := db.PingContext(ctx); err != nil {
		return nil, err
	}
	if err := checkIdentity(ctx, db); err != nil {
		return nil, err
	}
	if _, err := db.ExecContext(ctx, `PRAGMA journal_mode = WAL`); err != nil {
		return nil, fmt.Errorf("switch to WAL: %w", err)
	}
	live, alone, err := acquireLiveness(path)
	if err != nil {
		return nil, err
	}
	err = migrate(ctx, db)
	if err == nil && alone {
		err = markInterrupted(ctx, db, now(), "")
	}
	if err == nil && alone {
		err = live.shared()
	}
	if err != nil {
		live.release()
		return nil, err
	}
	return live, nil
}

// markInterrupted settles what a process that died left live: turns it left open (and their
// sessions) read as interrupted, sessions it left idle as their last turn ended (see the
// outcomes in rows.go), and the permission requests it left undecided as cancelled, as when a
// turn is stopped: nobody can answer them now (a saved session would otherwise show a prompt
// waiting forever). only, when not empty, limits it to that session: one whose owner died while
// other processes kept the file open (Claim takes its stale lease over).
func markInterrupted(ctx context.Context, db *sql.DB, at time.Time, only string) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("mark interrupted turns: %w", err)
	}
	defer tx.Rollback()
	// A session with an open turn died mid-turn. One still "ready" or "running" without an
	// open turn died idle (or before its first turn, or was written by an older agentdesk,
	// which left every live session "running"): it reads as its last turn ended, or as ended.
	// settledOutcome is the same rule a read-only store applies when it reads (settle.go).
	if _, err := tx.ExecContext(ctx, `UPDATE sessions AS s SET outcome = `+settledOutcome+`
		WHERE (? = '' OR s.id = ?) AND (s.outcome IN (?, ?) OR EXISTS (SELECT 1 FROM turns t WHERE t.session_id = s.id AND t.ended_at IS NULL))`,
		only, only, OutcomeReady, OutcomeRunning); err != nil {
		return fmt.Errorf("settle the sessions a process left live: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE turns SET ended_at = ?, stop_reason = ?
		WHERE ended_at IS NULL AND (? = '' OR session_id = ?)`, millis(at), OutcomeInterrupted, only, only); err != nil {
		return fmt.Errorf("mark interrupted turns: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE permissions SET outcome = ?, decided_by = ?, decided_at = ?
		WHERE outcome IS NULL AND (? = '' OR session_id = ?)`, PermissionCancelled, DecidedByCancel, millis(at), only, only); err != nil {
		return fmt.Errorf("cancel undecided permissions: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("mark interrupted turns: %w", err)
	}
	return nil
}
