//go:build unix

package hub

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/store"
)

// TestStartThatHangsIsCancelledAndLeavesNoProcess: an agent that never answers initialize is
// cancelled while starting: its process is gone when CancelStart returns, the session is out
// of the list, and no history row is left of it.
func TestStartThatHangsIsCancelledAndLeavesNoProcess(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	fifo := filepath.Join(dir, "pid")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv(pidFIFOEnv, fifo)
	st := openTestStore(t, filepath.Join(dir, "history.db"))
	defer st.Close()
	h := New(st, agentList{scriptAgent(t, dir, "mute", `[{"expect":"initialize"},{"expect":"never"}]`)}, t.Logf)
	defer h.CloseAll(ctx)
	out, _ := stateEvents()
	s, _, err := h.Start(StartRequest{AgentID: "mute", Cwd: dir}, out)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(fifo) // blocks until the agent runs and opens it
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	if _, err := fmt.Fscan(f, &pid); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if busy := h.Busy(); len(busy) != 1 || busy[0].State != acp.StateStarting {
		t.Fatalf("Busy = %+v, want the starting session", busy)
	}
	if err := h.CancelStart(ctx, s.ID()); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("the agent (pid %d) is still there after CancelStart: kill 0 = %v", pid, err)
	}
	if l := h.List(); len(l) != 0 {
		t.Fatalf("List = %+v after the cancel, want none", l)
	}
	if _, _, _, err := st.Session(ctx, s.ID()); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the cancelled start left a history row: %v", err)
	}
	if err := h.CancelStart(ctx, s.ID()); !errors.Is(err, ErrNoLiveSession) {
		t.Fatalf("second CancelStart: %v, want ErrNoLiveSession", err)
	}
}
