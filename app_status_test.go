package main

import (
	"context"
	"database/sql"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
)

// limitFileSize makes every write to a regular file past max bytes fail in this process (and
// its children), as a full disk does; the limit is lifted when the test ends or by the
// returned function. Go ignores the SIGXFSZ such a write raises.
func limitFileSize(t *testing.T, max uint64) (lift func()) {
	t.Helper()
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Fatal(err)
	}
	lim := old
	lim.Cur = max
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}
	lifted := false
	lift = func() {
		if !lifted {
			lifted = true
			if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Cleanup(lift)
	return lift
}

// childEnv names the test a process re-run by inOwnProcess is for.
const childEnv = "AGENTDESK_TEST_IN_OWN_PROCESS"

// inOwnProcess runs the calling test again in a process of its own, where limitFileSize can
// touch nothing else, and reports true in the parent, which then has nothing left to do. A
// file size limit applies to the whole process, and `go test` without -count=1 makes the
// testing package append to a log file of its own (testlog.txt, for its cache) that the limit
// would break.
func inOwnProcess(t *testing.T) bool {
	t.Helper()
	if os.Getenv(childEnv) == t.Name() {
		return false
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+regexp.QuoteMeta(t.Name())+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), childEnv+"="+t.Name())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s in its own process: %v\n%s", t.Name(), err, out)
	}
	if !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatalf("%s in its own process ran no test:\n%s", t.Name(), out)
	}
	return true
}

func waitStatus(t *testing.T, rec *recordingEmitter, saving bool) HistoryStatus {
	t.Helper()
	select {
	case st := <-rec.statuses:
		if st.Saving != saving {
			t.Fatalf("history status %+v, want saving=%v", st, saving)
		}
		return st
	case <-time.After(20 * time.Second):
		t.Fatalf("no history:status event with saving=%v", saving)
	}
	return HistoryStatus{}
}

// TestHistoryWriteFailureIsToldAndNothingIsLost: while no file can grow (a full disk), a turn
// streams on; the page is told once that saving stopped and what to do; once the disk has room,
// Retry saves the whole session, the page is told, and the history holds everything the live
// session showed.
func TestHistoryWriteFailureIsToldAndNothingIsLost(t *testing.T) {
	if inOwnProcess(t) {
		return
	}
	a, rec, info := startDemoApp(t)
	turn := func(prompt string) {
		t.Helper()
		if err := a.sessions.Prompt(info.SessionID, prompt); err != nil {
			t.Fatal(err)
		}
		p := rec.waitFor(t, func(e acp.Event) bool { return e.Kind == acp.EventPermission })
		if err := a.sessions.AnswerPermission(info.SessionID, p.RequestID, "reject"); err != nil {
			t.Fatal(err)
		}
		rec.waitFor(t, func(e acp.Event) bool { return e.Kind == acp.EventTurnEnd })
	}
	turn("before the disk filled up")
	if err := a.store.Writer().Flush(context.Background()); err != nil {
		t.Fatal(err)
	}

	lift := limitFileSize(t, 1024)
	turn("while the disk is full")
	st := waitStatus(t, rec, false)
	if !strings.Contains(st.Problem, "Saving the history failed") || !strings.Contains(st.Problem, "keep running") || st.Since == 0 {
		t.Errorf("problem %+v", st)
	}
	if got := a.history.HistoryStatus(); got.Saving || got.Problem != st.Problem {
		t.Errorf("HistoryStatus() = %+v, want the problem told", got)
	}
	if _, err := a.history.RetryHistory(); err == nil {
		t.Error("Retry succeeded while the disk is still full")
	}
	select {
	case extra := <-rec.statuses:
		t.Errorf("told again while still failing: %+v", extra)
	default:
	}

	lift()
	got, err := a.history.RetryHistory()
	if err != nil || !got.Saving {
		t.Fatalf("Retry after the disk has room: %+v, %v", got, err)
	}
	waitStatus(t, rec, true)
	live, err := a.sessions.Snapshot(info.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	saved, err := a.history.OpenHistory(info.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := transcriptMarkdown(saved.Entries), transcriptMarkdown(live.Entries); g != w {
		t.Fatalf("the saved transcript differs from the live one:\n--- saved\n%s\n--- live\n%s", g, w)
	}
	if len(saved.Turns) != 2 || saved.Turns[1].StopReason != schema.StopEndTurn {
		t.Errorf("saved turns %+v", saved.Turns)
	}
	var check string
	db, err := sql.Open("sqlite", os.Getenv("AGENTDESK_DB")) // another connection, as a reader would
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Errorf("integrity_check %q, %v", check, err)
	}
}
