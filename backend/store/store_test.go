package store

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	if path := os.Getenv(crashChildEnv); path != "" {
		crashChild(path) // never returns: killed by the parent test
	}
	if path := os.Getenv(holderEnv); path != "" {
		holdWriteLock(path) // never returns
	}
	if path := os.Getenv(ownerChildEnv); path != "" {
		ownerChild(path) // never returns: killed by the parent test
	}
	if path := os.Getenv(killChildEnv); path != "" {
		killChild(path) // never returns: killed by the parent test
	}
	os.Exit(m.Run())
}

// fakeClock is a deterministic clock for WithClock.
type fakeClock struct{ ms atomic.Int64 }

func newClock() *fakeClock {
	c := &fakeClock{}
	c.ms.Store(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC).UnixMilli())
	return c
}

func (c *fakeClock) Now() time.Time          { return time.UnixMilli(c.ms.Load()) }
func (c *fakeClock) Advance(d time.Duration) { c.ms.Add(d.Milliseconds()) }

// errLog collects the writer's reported errors.
type errLog struct {
	mu   sync.Mutex
	errs []error
}

func (l *errLog) add(err error) { l.mu.Lock(); l.errs = append(l.errs, err); l.mu.Unlock() }

func (l *errLog) take() []error {
	l.mu.Lock()
	defer l.mu.Unlock()
	errs := l.errs
	l.errs = nil
	return errs
}

// testStore is a Store on a temp file with a fake clock and recorded writer errors.
// Unexpected writer errors fail the test at cleanup.
type testStore struct {
	*Store
	clock *fakeClock
	errs  *errLog
}

func openTest(t testing.TB, opts ...Option) testStore {
	t.Helper()
	return openTestAt(t, filepath.Join(t.TempDir(), "history.db"), opts...)
}

func openTestAt(t testing.TB, path string, opts ...Option) testStore {
	t.Helper()
	ts := testStore{clock: newClock(), errs: &errLog{}}
	opts = append([]Option{WithClock(ts.clock.Now), WithErrorHandler(ts.errs.add)}, opts...)
	s, err := Open(context.Background(), path, opts...)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	ts.Store = s
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		for _, err := range ts.errs.take() {
			t.Errorf("unexpected writer error: %v", err)
		}
	})
	return ts
}

func flush(t testing.TB, s *Store) {
	t.Helper()
	if err := s.Writer().Flush(context.Background()); err != nil {
		t.Fatalf("Flush: %v", err)
	}
}

// withEntry queues session id, titled title, with one agent entry "a" of text, and flushes: the
// start of a test that streams into, rewrites or redoes what follows. It returns the writer.
func withEntry(t testing.TB, s testStore, id, title, text string) *Writer {
	t.Helper()
	w := s.Writer()
	w.CreateSession(Session{ID: id, Title: title})
	w.UpsertEntry(Entry{SessionID: id, EntryID: "a", Kind: "agent", Text: text})
	flush(t, s.Store)
	return w
}

// rawDB opens a second, independent connection pool on the file, as another process would.
func rawDB(t testing.TB, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// dbAtVersion creates a database file with the first n migrations only, as an older agentdesk
// left it, and returns its path and a connection to it (close it before opening a Store).
func dbAtVersion(t *testing.T, n int) (string, *sql.DB) {
	t.Helper()
	path := filepath.Join(t.TempDir(), fmt.Sprintf("v%d.db", n))
	db := rawDB(t, path)
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`PRAGMA journal_mode = WAL`); err != nil {
		t.Fatal(err)
	}
	for _, m := range ms[:n] {
		if err := apply(context.Background(), db, m); err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
	}
	return path, db
}

func TestOpenCreatesPrivateWALDatabaseAndMigratesOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nested", "dir", "agentdesk.db")
	s := openTestAt(t, path)
	s.Writer().CreateSession(Session{ID: "s1", Title: "first"})
	flush(t, s.Store)
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Mode().Perm(); got != 0o600 {
		t.Errorf("file mode = %v, want 0600", got)
	}
	if dir, err := os.Stat(filepath.Dir(path)); err != nil || dir.Mode().Perm() != 0o700 {
		t.Errorf("folder mode = %v (%v), want 0700", dir.Mode().Perm(), err)
	}

	// Second open: migrations are a no-op and the data is still there.
	s2 := openTestAt(t, path)
	var mode string
	var version int
	if err := s2.db.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q (%v), want wal", mode, err)
	}
	ms, _ := migrations()
	if err := s2.db.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil || version != len(ms) || version < 2 {
		t.Errorf("user_version = %d (%v), want %d (every embedded migration)", version, err, len(ms))
	}
	var fk int
	if err := s2.db.QueryRow(`PRAGMA foreign_keys`).Scan(&fk); err != nil || fk != 1 {
		t.Errorf("foreign_keys = %d (%v), want 1", fk, err)
	}
	got, _, _, err := s2.Session(context.Background(), "s1")
	if err != nil || got.Title != "first" {
		t.Errorf("after reopen: session %+v, %v", got, err)
	}
	if s2.Path() != path {
		t.Errorf("Path() = %q, want %q", s2.Path(), path)
	}
}

func TestOpenRefusesNonDatabaseAndLeavesItAlone(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.txt")
	content := []byte("these are my notes, not a database\n" + strings.Repeat("x", 4096))
	if err := os.WriteFile(text, content, 0o644); err != nil {
		t.Fatal(err)
	}
	foreign := filepath.Join(dir, "other.db")
	db := rawDB(t, foreign)
	if _, err := db.Exec(`CREATE TABLE things (x); INSERT INTO things VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	foreignBytes, err := os.ReadFile(foreign)
	if err != nil {
		t.Fatal(err)
	}

	for path, want := range map[string][]byte{text: content, foreign: foreignBytes} {
		s, err := Open(context.Background(), path)
		if err == nil {
			s.Close()
			t.Fatalf("Open(%s) succeeded", path)
		}
		if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "not a valid agentdesk database") {
			t.Errorf("Open(%s) error = %q, want the path and 'not a valid agentdesk database'", path, err)
		}
		got, rerr := os.ReadFile(path)
		if rerr != nil || !bytes.Equal(got, want) {
			t.Errorf("%s changed or vanished after failed Open (%v)", path, rerr)
		}
	}
}

func TestOpenMarksCrashedTurnsInterrupted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	s := openTestAt(t, path)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Simulate a crash: rows written as the writer would, a turn never ended.
	db := rawDB(t, path)
	if _, err := db.Exec(`
		INSERT INTO sessions (id, outcome, created_at, updated_at) VALUES
			('crashed', '', 1000, 2000), ('fine', 'completed', 1000, 2000);
		INSERT INTO turns (session_id, turn, prompt, started_at, ended_at, stop_reason) VALUES
			('crashed', 1, 'a', 1000, 1500, 'end_turn'),
			('crashed', 2, 'b', 1600, NULL, ''),
			('fine', 1, 'c', 1000, 1500, 'end_turn');
		INSERT INTO permissions (session_id, turn, request_id, requested_at, outcome, option_id, decided_by, decided_at) VALUES
			('crashed', 2, '7', 1700, NULL, NULL, NULL, NULL),
			('fine', 1, '3', 1200, 'selected', 'allow', 'user', 1300)`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	s2 := openTestAt(t, path)
	ctx := context.Background()
	sess, turns, _, err := s2.Session(ctx, "crashed")
	if err != nil {
		t.Fatal(err)
	}
	if sess.Outcome != OutcomeInterrupted {
		t.Errorf("outcome = %q, want interrupted", sess.Outcome)
	}
	if len(turns) != 2 || turns[0].StopReason != "end_turn" || !turns[0].EndedAt.Equal(time.UnixMilli(1500)) {
		t.Fatalf("closed turn was changed: %+v", turns)
	}
	if turns[1].StopReason != OutcomeInterrupted || !turns[1].EndedAt.Equal(s2.clock.Now()) {
		t.Errorf("open turn = %+v, want stop reason interrupted ended at %v", turns[1], s2.clock.Now())
	}
	fine, _, _, err := s2.Session(ctx, "fine")
	if err != nil || fine.Outcome != "completed" {
		t.Errorf("untouched session: %+v, %v", fine, err)
	}
	// Nobody can answer the crashed turn's permission request any more: it reads cancelled.
	if p, err := s2.Permissions(ctx, "crashed"); err != nil || len(p) != 1 || p[0].Outcome != PermissionCancelled ||
		p[0].DecidedBy != DecidedByCancel || !p[0].DecidedAt.Equal(s2.clock.Now()) {
		t.Errorf("the undecided permission after the crash: %+v, %v", p, err)
	}
	if p, err := s2.Permissions(ctx, "fine"); err != nil || len(p) != 1 || p[0].Outcome != PermissionSelected || p[0].DecidedBy != DecidedByUser {
		t.Errorf("a decided permission was changed: %+v, %v", p, err)
	}
}

func TestDefaultPath(t *testing.T) {
	t.Setenv("HOME", "/home/u")
	t.Setenv("AGENTDESK_DB", "")
	t.Setenv("XDG_DATA_HOME", "")
	check := func(want string) {
		t.Helper()
		if got, err := DefaultPath(); err != nil || got != want {
			t.Errorf("DefaultPath() = %q, %v; want %q", got, err, want)
		}
	}
	check("/home/u/.local/share/agentdesk/agentdesk.db")
	t.Setenv("XDG_DATA_HOME", "relative/ignored")
	check("/home/u/.local/share/agentdesk/agentdesk.db")
	t.Setenv("XDG_DATA_HOME", "/data")
	check("/data/agentdesk/agentdesk.db")
	t.Setenv("AGENTDESK_DB", "/tmp/x.db")
	check("/tmp/x.db")
}

func TestOpenPathWithURIMetacharacters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a?b#c%d.db")
	s := openTestAt(t, path)
	s.Writer().CreateSession(Session{ID: "s"})
	flush(t, s.Store)
	if _, err := os.Stat(path); err != nil {
		t.Errorf("database not at the literal path: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := Open(context.Background(), ""); err == nil {
		t.Error("Open(\"\") succeeded")
	}
}

func TestOpenLeavesAnotherStoresRunningTurnsAlone(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "shared.db")
	app := openTestAt(t, path)
	app.Writer().CreateSession(Session{ID: "live"})
	app.Writer().StartTurn(Turn{SessionID: "live", Turn: 1, Prompt: "still running"})
	flush(t, app.Store)

	cli := openTestAt(t, path) // e.g. `agentdesk history` while the app runs
	sess, turns, _, err := cli.Session(ctx, "live")
	if err != nil || len(turns) != 1 || !turns[0].EndedAt.IsZero() || sess.Outcome != "" {
		t.Fatalf("second Store interrupted a live turn: %+v %+v %v", sess, turns, err)
	}
	if err := cli.Close(); err != nil {
		t.Fatal(err)
	}
	app.Writer().EndTurn("live", 1, "end_turn", "", time.Time{})
	flush(t, app.Store)
	_, turns, _, _ = app.Session(ctx, "live")
	if turns[0].StopReason != "end_turn" {
		t.Errorf("turn = %+v, want ended by its own Store", turns[0])
	}
}
