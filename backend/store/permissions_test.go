package store

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestPermissionsRoundTrip(t *testing.T) {
	s, commits := openBatched(t, 1_000_000)
	ctx := context.Background()
	w := s.Writer()
	requested := s.clock.Now()
	options := []byte(`[{"id":"allow","name":"Allow","kind":"allow_once"},{"id":"reject","name":"Reject","kind":"reject_once"}]`)

	for _, id := range []string{"s1", "s2"} {
		w.CreateSession(Session{ID: id})
		w.StartTurn(Turn{SessionID: id, Turn: 1})
	}
	w.RequestPermission(Permission{SessionID: "s1", RequestID: "0", ToolCallID: "t1", Title: "Write parser.go",
		Turn: 1, Options: options})
	options[2] = 'X' // the writer keeps its own copy
	w.RequestPermission(Permission{SessionID: "s1", RequestID: `"p-1"`, ToolCallID: "t2", Title: "Run tests", Turn: 1})
	w.RequestPermission(Permission{SessionID: "s2", RequestID: "0", ToolCallID: "t9", Title: "Same id, other session", Turn: 1})
	noCommitYet(t, commits) // a request waits for the batch delay

	s.clock.Advance(3 * time.Second)
	decided := s.clock.Now()
	w.DecidePermission("s1", "0", PermissionSelected, "allow", DecidedByUser, time.Time{})
	if n := nextCommit(t, commits); n != 8 { // a decision is committed at once, with what precedes it
		t.Errorf("the decision's batch had %d ops, want 8", n)
	}
	// Another process sees the decision without any Flush.
	var outcome, by string
	if err := rawDB(t, s.Path()).QueryRow(`SELECT outcome, decided_by FROM permissions
		WHERE session_id = 's1' AND request_id = '0'`).Scan(&outcome, &by); err != nil || outcome != "selected" || by != "user" {
		t.Errorf("other connection sees %q by %q (%v)", outcome, by, err)
	}
	w.DecidePermission("s1", `"p-1"`, PermissionCancelled, "", DecidedByCancel, decided.Add(time.Second))
	flush(t, s.Store)

	got, err := s.Permissions(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	want := []Permission{
		{SessionID: "s1", RequestID: "0", ToolCallID: "t1", Title: "Write parser.go", Turn: 1,
			Options:     []byte(`[{"id":"allow","name":"Allow","kind":"allow_once"},{"id":"reject","name":"Reject","kind":"reject_once"}]`),
			RequestedAt: requested, Outcome: "selected", OptionID: "allow", DecidedBy: "user", DecidedAt: decided},
		{SessionID: "s1", RequestID: `"p-1"`, ToolCallID: "t2", Title: "Run tests", Turn: 1, Options: []byte(`[]`),
			RequestedAt: requested, Outcome: "cancelled", DecidedBy: "cancel", DecidedAt: decided.Add(time.Second)},
	}
	if len(got) != len(want) {
		t.Fatalf("Permissions(s1) = %+v", got)
	}
	for i := range want {
		if !permissionEqual(got[i], want[i]) {
			t.Errorf("permission %d\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
	other, err := s.Permissions(ctx, "s2")
	if err != nil || len(other) != 1 || other[0].ToolCallID != "t9" || other[0].Outcome != "" || !other[0].DecidedAt.IsZero() {
		t.Errorf("Permissions(s2) = %+v, %v; want its own open request 0", other, err)
	}
	if none, err := s.Permissions(ctx, "nope"); err != nil || len(none) != 0 {
		t.Errorf("Permissions(nope) = %v, %v", none, err)
	}
}

func permissionEqual(a, b Permission) bool {
	return a.SessionID == b.SessionID && a.RequestID == b.RequestID && a.ToolCallID == b.ToolCallID &&
		a.Title == b.Title && a.Turn == b.Turn && string(a.Options) == string(b.Options) &&
		a.RequestedAt.Equal(b.RequestedAt) && a.Outcome == b.Outcome && a.OptionID == b.OptionID &&
		a.DecidedBy == b.DecidedBy && a.DecidedAt.Equal(b.DecidedAt)
}

func TestPermissionRepeatedRequestIDReplacesAndSortsLast(t *testing.T) {
	s := openTest(t)
	w := s.Writer()
	w.CreateSession(Session{ID: "s"})
	w.RequestPermission(Permission{SessionID: "s", RequestID: "0", Title: "first agent process"})
	w.DecidePermission("s", "0", PermissionSelected, "allow", DecidedByUser, time.Time{})
	w.RequestPermission(Permission{SessionID: "s", RequestID: "1", Title: "other"})
	w.RequestPermission(Permission{SessionID: "s", RequestID: "0", Title: "restarted agent"}) // ids start again
	flush(t, s.Store)
	got, err := s.Permissions(context.Background(), "s")
	if err != nil || len(got) != 2 || got[0].RequestID != "1" || got[1].Title != "restarted agent" || got[1].Outcome != "" {
		t.Errorf("Permissions = %+v, %v; want 1, then the new (open) request 0", got, err)
	}
}

func TestPermissionRecordedDecided(t *testing.T) {
	s, commits := openBatched(t, 1_000_000)
	w := s.Writer()
	w.CreateSession(Session{ID: "s"})
	w.RequestPermission(Permission{SessionID: "s", RequestID: "7", Outcome: PermissionSelected, OptionID: "allow",
		DecidedBy: DecidedByRule})
	if n := nextCommit(t, commits); n != 2 {
		t.Errorf("a decided request's batch had %d ops, want 2 (committed at once)", n)
	}
	got, err := s.Permissions(context.Background(), "s")
	if err != nil || len(got) != 1 || got[0].DecidedBy != "rule" || !got[0].DecidedAt.Equal(s.clock.Now()) {
		t.Errorf("Permissions = %+v, %v; want decided by rule now", got, err)
	}
}

func TestPermissionErrorsAreReported(t *testing.T) {
	s := openTest(t, WithBatch(time.Hour, 1_000_000))
	w := s.Writer()
	w.CreateSession(Session{ID: "s"})
	w.RequestPermission(Permission{SessionID: "s", RequestID: "1"})
	w.DecidePermission("s", "404", PermissionSelected, "allow", DecidedByUser, time.Time{})
	w.DecidePermission("s", "1", "approved", "allow", DecidedByUser, time.Time{})
	w.DecidePermission("s", "1", PermissionSelected, "allow", "robot", time.Time{})
	w.DecidePermission("s", "1", "", "", "", time.Time{})
	w.RequestPermission(Permission{SessionID: "no-such-session", RequestID: "1"})
	w.RequestPermission(Permission{SessionID: "s", RequestID: "2", Outcome: PermissionSelected}) // no DecidedBy
	if err := w.Flush(context.Background()); err == nil {
		t.Error("Flush succeeded")
	}
	errs := s.errs.take()
	wants := []string{`permission request 404 of session "s" dropped: not found`,
		`"approved"`, `"robot"`, `decision "" by ""`, `no-such-session`, `permission request 2`}
	if len(errs) != len(wants) {
		t.Fatalf("reported %d errors, want %d: %v", len(errs), len(wants), errs)
	}
	for i, want := range wants {
		if !strings.Contains(errs[i].Error(), want) {
			t.Errorf("error %d = %q, want it to contain %q", i, errs[i], want)
		}
	}
	if !errors.Is(errs[0], ErrNotFound) {
		t.Errorf("deciding a missing request: %v, want ErrNotFound", errs[0])
	}
	got, err := s.Permissions(context.Background(), "s")
	if err != nil || len(got) != 1 || got[0].Outcome != "" {
		t.Errorf("Permissions = %+v, %v; want request 1, still open", got, err)
	}
}

func TestDeleteSessionCascadesToPermissions(t *testing.T) {
	s := openTest(t)
	w := s.Writer()
	for _, id := range []string{"gone", "kept"} {
		w.CreateSession(Session{ID: id})
		w.RequestPermission(Permission{SessionID: id, RequestID: "0"})
	}
	flush(t, s.Store)
	if err := s.DeleteSession(context.Background(), "gone"); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM permissions WHERE session_id = 'gone'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("%d permissions of the deleted session left (%v)", n, err)
	}
	if got, err := s.Permissions(context.Background(), "kept"); err != nil || len(got) != 1 {
		t.Errorf("other session's permissions: %+v, %v", got, err)
	}
}

// TestMigrateFromVersion1 upgrades a database written before permissions existed.
func TestMigrateFromVersion1(t *testing.T) {
	ctx := context.Background()
	path, db := dbAtVersion(t, 1)
	if _, err := db.Exec(`INSERT INTO sessions (id, title, created_at, updated_at) VALUES ('old', 'Old parser work', 1, 2);
		INSERT INTO entries (session_id, entry_id, seq, text) VALUES ('old', 'e1', 1, 'refactoring the tokenizer')`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	s := openTestAt(t, path)
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	var version int
	if err := s.db.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil || version != len(ms) {
		t.Errorf("user_version = %d (%v), want %d", version, err, len(ms))
	}
	// Rows and search survive, including the rebuilt index (3-letter prefix).
	for _, q := range []string{"tok", "tokenizer", "parser"} {
		if got, err := s.ListSessions(ctx, q, 0); err != nil || ids(got) != "old" {
			t.Errorf("search %q after the upgrade = %s, %v", q, ids(got), err)
		}
	}
	s.Writer().RequestPermission(Permission{SessionID: "old", RequestID: "0"})
	flush(t, s.Store)
	if got, err := s.Permissions(ctx, "old"); err != nil || len(got) != 1 {
		t.Errorf("Permissions after the upgrade = %+v, %v", got, err)
	}
	if _, err := s.db.Exec(`INSERT INTO entries_fts (entries_fts, rank) VALUES ('integrity-check', 1)`); err != nil {
		t.Errorf("FTS integrity-check: %v", err)
	}
}
