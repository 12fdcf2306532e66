//go:build unix

package hub

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/changes"
)

// TestFIFOAtInfoExcludeDoesNotHangTurns: an agent that leaves a FIFO at .git/info/exclude does
// not hang its turn's snapshot (the old one blocked in open(2), and every later turn in the
// folder with it): the turn ends with its changes and a note naming the FIFO, and the next turn
// in that folder ends too.
func TestFIFOAtInfoExcludeDoesNotHangTurns(t *testing.T) {
	base := t.TempDir()
	proj := filepath.Join(base, "proj")
	if err := os.MkdirAll(filepath.Join(proj, ".git", "info"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(proj, ".git", "info", "exclude"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(proj, "a.txt"), []byte("a\n"), 0o644)
	st := openTestStore(t, filepath.Join(base, "history.db"))
	defer st.Close()
	const twoTurns = "[" + handshake + `
	{"expect":"session/prompt"},
	{"call":"terminal/create","params":{"command":"sh","args":["-c","printf made > made.txt"]},"want":"term-1"},
	{"call":"terminal/wait_for_exit","params":{"terminalId":"term-1"}},
	{"reply":{"stopReason":"end_turn"}},
	{"expect":"session/prompt"}, {"reply":{"stopReason":"end_turn"}},
	{"expect":"never"}]`
	h := New(st, agentList{scriptAgent(t, base, "a", twoTurns)}, t.Logf)
	l, err := changes.Open(filepath.Join(base, "ledger"), changes.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h.SetLedger(l)
	s, evs := startIdle(t, h, proj)
	for turn := 1; turn <= 2; turn++ {
		if _, err := s.Prompt("go"); err != nil {
			t.Fatal(err)
		}
		end := waitFor(t, evs, func(ev acp.Event) bool { return ev.Kind == acp.EventTurnEnd })
		if end.Receipt == nil || end.Receipt.Changes == nil || end.Receipt.Changes.Error != "" {
			t.Fatalf("turn %d: receipt %+v, want the changes recorded", turn, end.Receipt)
		}
		ch := end.Receipt.Changes
		if !strings.Contains(strings.Join(ch.Notes, "\n"), ".git/info/exclude is a FIFO") {
			t.Fatalf("turn %d: notes %q, want the FIFO named", turn, ch.Notes)
		}
		if turn == 1 && (len(ch.Files) != 1 || ch.Files[0].Path != "made.txt") {
			t.Fatalf("turn 1 changed %+v, want made.txt added", ch.Files)
		}
	}
}
