package hub

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/changes"
)

// TestOneRevertDoesNotHoldAnother: while a revert holds one folder (stuck on its disk, say), a
// revert of another session in another folder goes ahead, and one waiting for the held folder
// ends with its context, in words, having written nothing.
func TestOneRevertDoesNotHoldAnother(t *testing.T) {
	base := t.TempDir()
	h := ledgerHub(t, base, onDisk)
	ids := map[string]string{}
	for _, name := range []string{"projA", "projB"} {
		proj := filepath.Join(base, name)
		os.MkdirAll(proj, 0o755)
		s, evs := startIdle(t, h, proj)
		if _, err := s.Prompt("make a file"); err != nil {
			t.Fatal(err)
		}
		perm := waitFor(t, evs, func(ev acp.Event) bool { return ev.Kind == acp.EventPermission })
		if err := s.AnswerPermission(perm.RequestID, "ok"); err != nil { // then a command makes made.txt
			t.Fatal(err)
		}
		waitFor(t, evs, func(ev acp.Event) bool { return ev.Kind == acp.EventTurnEnd })
		waitFor(t, evs, func(ev acp.Event) bool { return ev.Kind == acp.EventState && ev.State == acp.StateIdle })
		ids[proj] = s.ID()
	}
	projA, projB := filepath.Join(base, "projA"), filepath.Join(base, "projB")
	ctx := context.Background()
	unlock, err := h.reverting.lock(ctx, sessionKey(ids[projA]), projA) // a revert of projA, stuck
	if err != nil {
		t.Fatal(err)
	}
	plan, err := h.Revert(ctx, changes.RevertRequest{SessionID: ids[projB], Turn: 1, Scope: changes.ScopeTurn}, true)
	if err != nil || !plan.Done {
		t.Fatalf("revert in projB while projA is held: %+v %v", plan, err)
	}
	if _, err := os.Stat(filepath.Join(projB, "made.txt")); !os.IsNotExist(err) {
		t.Fatalf("projB's made.txt is still there: %v", err)
	}
	gone, cancel := context.WithCancel(ctx)
	cancel()
	_, err = h.Revert(gone, changes.RevertRequest{SessionID: ids[projA], Turn: 1, Scope: changes.ScopeTurn}, true)
	if err == nil || !strings.Contains(err.Error(), "another revert of session "+ids[projA]) {
		t.Fatalf("revert in the held projA: %v, want it to say another revert of the session is running", err)
	}
	if _, err := h.reverting.lock(gone, projB, projA); err == nil || !strings.Contains(err.Error(), "another revert of "+projA) {
		t.Fatalf("waiting for the held projA: %v, want it to say another revert of projA is running", err)
	}
	if readFile(t, filepath.Join(projA, "made.txt")) != "made by a command" {
		t.Fatal("the refused revert changed projA")
	}
	unlock()
	if plan, err := h.Revert(ctx, changes.RevertRequest{SessionID: ids[projA], Turn: 1, Scope: changes.ScopeTurn}, true); err != nil || !plan.Done {
		t.Fatalf("revert in projA once free: %+v %v", plan, err)
	}
}
