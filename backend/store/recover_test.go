package store

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recoverAt runs OpenOrRecover on path with the test clock and error log; the store is
// closed at cleanup.
func recoverAt(t *testing.T, path string) (testStore, string) {
	t.Helper()
	ts := testStore{clock: newClock(), errs: &errLog{}}
	s, notice, err := OpenOrRecover(context.Background(), path, WithClock(ts.clock.Now), WithErrorHandler(ts.errs.add))
	if err != nil {
		t.Fatalf("OpenOrRecover: %v", err)
	}
	ts.Store = s
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return ts, notice
}

// checkUsable writes and reads a session.
func checkUsable(t *testing.T, s testStore) {
	t.Helper()
	s.Writer().CreateSession(Session{ID: "new", Title: "after recovery"})
	flush(t, s.Store)
	if got, err := s.ListSessions(context.Background(), "", 0); err != nil || ids(got) != "new" {
		t.Errorf("new history lists %s, %v; want only the new session", ids(got), err)
	}
}

// asideSuffix is what the test clock makes OpenOrRecover append to the path it moves.
const asideSuffix = ".corrupt-20250301T120000Z"

func TestOpenOrRecoverSetsAsideInvalidFiles(t *testing.T) {
	for _, tc := range []struct {
		name   string
		make   func(t *testing.T, path string)
		notice string
	}{
		{"garbage", func(t *testing.T, path string) {
			write(t, path, strings.Repeat("these are my notes ", 400))
			write(t, path+"-wal", "a stray journal that must move along")
		}, "was not a valid agentdesk database; it was moved to"},
		{"another program's SQLite file", func(t *testing.T, path string) {
			db := rawDB(t, path) // rollback journal: Open must not switch it to WAL
			if _, err := db.Exec(`CREATE TABLE things (x); INSERT INTO things VALUES (1)`); err != nil {
				t.Fatal(err)
			}
			db.Close()
		}, "was not a valid agentdesk database; it was moved to"},
		{"damaged schema", func(t *testing.T, path string) {
			s := openTestAt(t, path)
			s.Writer().CreateSession(Session{ID: "old"})
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			// Page 1 holds the schema root after the 100-byte file header: scribble over it.
			if _, err := f.WriteAt(bytes.Repeat([]byte{0xa5}, 4096-100), 100); err != nil {
				t.Fatal(err)
			}
			f.Close()
		}, "was not a valid agentdesk database; it was moved to"},
		{"newer schema", func(t *testing.T, path string) {
			s := openTestAt(t, path)
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if _, err := rawDB(t, path).Exec(`PRAGMA user_version = 99`); err != nil {
				t.Fatal(err)
			}
		}, "was not a valid agentdesk database for this version: it was written by a newer agentdesk (schema version 99;"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "history.db")
			tc.make(t, path)
			old := readAll(t, path)
			oldWAL, _ := os.ReadFile(path + "-wal")

			if s, err := Open(context.Background(), path); err == nil {
				s.Close()
				t.Fatal("Open succeeded")
			}
			if !bytes.Equal(readAll(t, path), old) {
				t.Fatal("Open changed the file")
			}
			s, notice := recoverAt(t, path)
			aside := path + asideSuffix
			for _, want := range []string{path + " ", tc.notice, aside + ";", "a new empty history was started"} {
				if !strings.Contains(notice, want) {
					t.Errorf("notice %q does not contain %q", notice, want)
				}
			}
			if !bytes.Equal(readAll(t, aside), old) {
				t.Error("the set-aside file does not hold the old bytes")
			}
			if oldWAL != nil && !bytes.Equal(readAll(t, aside+"-wal"), oldWAL) {
				t.Error("the -wal was not moved along")
			}
			checkUsable(t, s)
		})
	}
}

func TestOpenOrRecoverLeavesAGoodDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.db")
	s := openTestAt(t, path)
	s.Writer().CreateSession(Session{ID: "kept"})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, notice := recoverAt(t, path)
	if notice != "" {
		t.Errorf("notice = %q, want none", notice)
	}
	if _, _, _, err := s2.Session(context.Background(), "kept"); err != nil {
		t.Errorf("data lost: %v", err)
	}
	if m, _ := filepath.Glob(path + ".corrupt-*"); len(m) != 0 {
		t.Errorf("set aside %v", m)
	}
}

func TestOpenOrRecoverMovesNothingInUse(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "history.db")
	newer := openTestAt(t, path) // stands for a newer agentdesk using the file
	if _, err := rawDB(t, path).Exec(`PRAGMA user_version = 99`); err != nil {
		t.Fatal(err)
	}
	s, notice, err := OpenOrRecover(ctx, path)
	if err == nil {
		s.Close()
		t.Fatal("OpenOrRecover succeeded on a file another Store has open")
	}
	if notice != "" || !strings.Contains(err.Error(), "another agentdesk process has it open") {
		t.Errorf("OpenOrRecover = %q, %v", notice, err)
	}
	if m, _ := filepath.Glob(path + ".corrupt-*"); len(m) != 0 {
		t.Errorf("moved %v while in use", m)
	}
	newer.Writer().CreateSession(Session{ID: "still-works"})
	flush(t, newer.Store)
}

func TestOpenOrRecoverNeverOverwritesAnEarlierCopy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.db")
	write(t, path, "garbage one")
	write(t, path+asideSuffix, "an earlier set-aside copy")
	clock := newClock()
	s, notice, err := OpenOrRecover(context.Background(), path, WithClock(clock.Now))
	if err == nil {
		s.Close()
		t.Fatal("OpenOrRecover succeeded")
	}
	if notice != "" || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("OpenOrRecover = %q, %v; want 'already exists'", notice, err)
	}
	if got := string(readAll(t, path+asideSuffix)); got != "an earlier set-aside copy" {
		t.Errorf("earlier copy overwritten: %q", got)
	}
	if got := string(readAll(t, path)); got != "garbage one" {
		t.Errorf("file changed: %q", got)
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func readAll(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
