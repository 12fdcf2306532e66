//go:build unix

package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"agentdesk/internal/asnobody"
)

// TestReadOnlyCopyCanBeListed: a history the user may not write (a read-only folder, as for a
// copy on a read-only disk) is still listed and printed through OpenReadOnly, and nothing is
// created next to it.
func TestReadOnlyCopyCanBeListed(t *testing.T) {
	if asnobody.Rerun(t) {
		return
	}
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "history.db")
	s := openTestAt(t, path)
	s.Writer().CreateSession(Session{ID: "s1", Title: "kept", AgentName: "demo", Outcome: "end_turn"})
	s.Writer().StartTurn(Turn{SessionID: "s1", Turn: 1, Prompt: "hello"})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, leftover := range []string{"-wal", "-shm", ".lock"} {
		os.Remove(path + leftover) // a copy is the database file alone
	}
	names := dirListing(t, dir)
	if err := os.Chmod(path, 0o400); err != nil {
		t.Fatal(err)
	}
	readOnlyDir(t, dir)

	ro, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatalf("OpenReadOnly: %v", err)
	}
	rows, err := ro.ListSessions(ctx, "", 10)
	if err != nil || len(rows) != 1 || rows[0].Title != "kept" {
		t.Fatalf("ListSessions = %+v, %v; want the one session", rows, err)
	}
	if _, turns, _, err := ro.Session(ctx, "s1"); err != nil || len(turns) != 1 || turns[0].Prompt != "hello" {
		t.Fatalf("Session = %+v, %v", turns, err)
	}
	if err := ro.RenameSession(ctx, "s1", "new"); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("RenameSession on a read-only store = %v, want ErrReadOnly", err)
	}
	if err := ro.Close(); err != nil {
		t.Fatal(err)
	}
	if got := dirListing(t, dir); strings.Join(got, ",") != strings.Join(names, ",") {
		t.Fatalf("the folder changed: %v, was %v", got, names)
	}
}

// TestReadOnlyRefusesAnOlderSchema: reading needs the migrations, which need writing.
func TestReadOnlyRefusesAnOlderSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.db")
	s := openTestAt(t, path)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`PRAGMA user_version = 1`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, err = OpenReadOnly(context.Background(), path)
	if err == nil || !strings.Contains(err.Error(), "older agentdesk") || !strings.Contains(err.Error(), "write access") {
		t.Fatalf("OpenReadOnly of an old file = %v, want the older-schema advice", err)
	}
}

// TestSessionsThatDiedIdleReadAsEnded: a session whose process died before it had a turn, or
// while it waited for the next, does not stay "running" or "ready" for ever: it reads as its
// last turn ended, or as ended; only one that died mid-turn reads interrupted.
func TestSessionsThatDiedIdleReadAsEnded(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "history.db")
	s := openTestAt(t, path)
	w := s.Writer()
	w.CreateSession(Session{ID: "never", Title: "New session", Outcome: OutcomeRunning}) // as older versions wrote it
	w.CreateSession(Session{ID: "ready", Title: "New session", Outcome: OutcomeReady})
	w.CreateSession(Session{ID: "done", Title: "ended", Outcome: "end_turn"})
	w.CreateSession(Session{ID: "idle", Title: "idle after two turns", Outcome: OutcomeReady})
	w.StartTurn(Turn{SessionID: "idle", Turn: 1, Prompt: "one"})
	w.EndTurn("idle", 1, "end_turn", "", time.Now())
	w.StartTurn(Turn{SessionID: "idle", Turn: 2, Prompt: "two"})
	w.EndTurn("idle", 2, "cancelled", "", time.Now())
	w.CreateSession(Session{ID: "mid", Title: "mid-turn", Outcome: OutcomeRunning})
	w.StartTurn(Turn{SessionID: "mid", Turn: 1, Prompt: "one"})
	if err := s.Writer().Flush(ctx); err != nil {
		t.Fatal(err)
	}
	s.live.release() // as a SIGKILL drops the lock, without closing the store
	s.live = nil
	again := openTestAt(t, path)
	rows, err := again.ListSessions(ctx, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range rows {
		got[r.ID] = r.Outcome
	}
	want := map[string]string{"never": OutcomeEnded, "ready": OutcomeEnded, "done": "end_turn", "idle": "cancelled", "mid": OutcomeInterrupted}
	for id, o := range want {
		if got[id] != o {
			t.Errorf("%s after the crash reads %q, want %q (all: %v)", id, got[id], o, got)
		}
	}
}

// TestLockHeldByAnotherAgentdesk: when another agentdesk keeps the history locked, the advice
// says so and names it, instead of blaming "another program".
func TestLockHeldByAnotherAgentdesk(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "history.db")
	s := openTestAt(t, path)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	child, lines, _ := startChild(t, holderEnv, path)
	if !lines.Scan() || lines.Text() != "ready" {
		t.Fatalf("the other agentdesk said %q", lines.Text())
	}

	errs := make(chan error, 10)
	st, err := Open(ctx, path, WithErrorHandler(func(err error) { errs <- err }))
	if err == nil {
		defer st.Close()
		st.Writer().CreateSession(Session{ID: "s", Title: "t"})
		flushCtx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		_ = st.Writer().Flush(flushCtx)
		select {
		case err = <-errs:
		default:
			t.Fatal("a write under another agentdesk's lock reported no error")
		}
	}
	want := fmt.Sprintf("another agentdesk (process %d", child.Process.Pid)
	if advice := Advice(err); !strings.Contains(advice, want) {
		t.Fatalf("advice %q for %v; want it to say %q", advice, err, want)
	}
}

// TestReadOnlyCopyOfACrashedHistorySettlesOutcomes: a read-only copy of a history whose process
// died reads as Open would have settled it (a session mid-turn interrupted, one idle as its
// last stop reason or ended), in the list, a search and the session itself; while another
// Store holds the file its sessions may really be live, so they read as stored.
func TestReadOnlyCopyOfACrashedHistorySettlesOutcomes(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "history.db")
	s := openTestAt(t, path)
	w := s.Writer()
	w.CreateSession(Session{ID: "mid", Title: "mid turn", Outcome: OutcomeRunning})
	w.StartTurn(Turn{SessionID: "mid", Turn: 1, Prompt: "working"})
	w.CreateSession(Session{ID: "idle", Title: "idle after a turn", Outcome: OutcomeReady})
	w.StartTurn(Turn{SessionID: "idle", Turn: 1, Prompt: "done"})
	w.EndTurn("idle", 1, "end_turn", "", time.Now())
	w.CreateSession(Session{ID: "fresh", Title: "never prompted", Outcome: OutcomeReady})
	w.CreateSession(Session{ID: "stopped", Title: "stopped", Outcome: "cancelled"})
	if err := s.Close(); err != nil { // a crash: nothing settled on the way out
		t.Fatal(err)
	}
	want := map[string]string{"mid": OutcomeInterrupted, "idle": "end_turn", "fresh": OutcomeEnded, "stopped": "cancelled"}
	stored := map[string]string{"mid": OutcomeRunning, "idle": OutcomeReady, "fresh": OutcomeReady, "stopped": "cancelled"}

	check := func(want map[string]string) {
		t.Helper()
		ro, err := OpenReadOnly(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer ro.Close()
		rows, err := ro.ListSessions(ctx, "", 0)
		if err != nil || len(rows) != len(want) {
			t.Fatalf("ListSessions = %+v, %v", rows, err)
		}
		for _, r := range rows {
			if r.Outcome != want[r.ID] {
				t.Errorf("listed %s reads %q, want %q", r.ID, r.Outcome, want[r.ID])
			}
		}
		if hits, err := ro.ListSessions(ctx, "mid turn", 0); err != nil || len(hits) != 1 || hits[0].Outcome != want["mid"] {
			t.Errorf("search = %+v, %v; want mid reading %q", hits, err, want["mid"])
		}
		if sess, _, _, err := ro.Session(ctx, "idle"); err != nil || sess.Outcome != want["idle"] {
			t.Errorf("Session(idle) = %q, %v; want %q", sess.Outcome, err, want["idle"])
		}
	}
	check(want)

	// Another process's Store holds the file (its shared liveness lock): shown as stored.
	f, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH); err != nil {
		t.Fatal(err)
	}
	check(stored)
}
