package hub

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/store"
)

// TestHistoryHealthTellsAFailureReportedBeforeSet: a write that failed before the front end
// wired the health (the command line wires it once its session has started) is told when it
// is wired, not only counted.
func TestHistoryHealthTellsAFailureReportedBeforeSet(t *testing.T) {
	health := NewHistoryHealth(func(err error) string { return "saving failed: " + err.Error() })
	defer health.Close()
	health.Report(errors.New("disk full"))
	told := make(chan HistoryStatus, 1)
	health.Set(func(context.Context) error { return nil }, func() {}, func(st HistoryStatus) { told <- st })
	select {
	case st := <-told:
		if st.Saving || st.Problem != "saving failed: disk full" {
			t.Fatalf("told %+v", st)
		}
	default:
		t.Fatal("a failure reported before Set was never told")
	}
}

// TestAFailedWriteOfALiveSessionIsTold: a write of a live session that the history refuses
// (here a trigger refuses the turn's row, as the unique key refused a second owner's turn) is
// told to the front end as the history's status, naming the session and the cause.
func TestAFailedWriteOfALiveSessionIsTold(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	path := filepath.Join(dir, "history.db")
	health := NewHistoryHealth(func(err error) string { return err.Error() })
	defer health.Close()
	st, err := store.Open(ctx, path, store.WithErrorHandler(health.Report))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = raw.ExecContext(ctx, `CREATE TRIGGER refuse_boom BEFORE INSERT ON turns WHEN NEW.prompt = 'boom'
		BEGIN SELECT RAISE(ABORT, 'injected failure'); END`)
	raw.Close()
	if err != nil {
		t.Fatal(err)
	}
	h := New(st, agentList{scriptAgent(t, dir, "a", chatty)}, t.Logf)
	defer h.CloseAll(ctx)
	told := make(chan HistoryStatus, 4)
	health.Set(st.Writer().Flush, h.Resave, func(s HistoryStatus) { told <- s })
	s, states := idleSession(t, h, dir)
	if _, err := s.Prompt("boom"); err != nil {
		t.Fatal(err)
	}
	status := <-told
	if status.Saving || !strings.Contains(status.Problem, "injected failure") || !strings.Contains(status.Problem, s.ID()) {
		t.Fatalf("told %+v", status)
	}
	waitState(t, states, acp.StateIdle)
}
