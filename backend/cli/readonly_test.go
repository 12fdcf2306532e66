//go:build unix

package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/store"
	"agentdesk/internal/asnobody"
)

// TestCLIReadsAReadOnlyCopy: history and show list and print a history the user cannot write
// (a copy in a read-only folder), where they used to fail for want of write access.
func TestCLIReadsAReadOnlyCopy(t *testing.T) {
	if asnobody.Rerun(t) {
		return
	}
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "copy.db")
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	st.Writer().CreateSession(store.Session{ID: "0123abcd-0000-0000-0000-000000000000", Title: "copied session", AgentName: "Demo agent", Outcome: "end_turn"})
	st.Writer().StartTurn(store.Turn{SessionID: "0123abcd-0000-0000-0000-000000000000", Turn: 1, Prompt: "hello copy"})
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	for _, leftover := range []string{"-wal", "-shm", ".lock"} {
		os.Remove(db + leftover)
	}
	if err := os.Chmod(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o700) })

	var out, errOut bytes.Buffer
	if code := historyCLI([]string{"--db", db}, nil, &out, &errOut); code != 0 || !strings.Contains(out.String(), "copied session") {
		t.Fatalf("history of a read-only copy: exit %d: %s %s", code, out.String(), errOut.String())
	}
	out.Reset()
	if code := showCLI([]string{"--db", db, "0123abcd"}, nil, &out, &errOut); code != 0 || !strings.HasPrefix(out.String(), "# copied session") {
		t.Fatalf("show of a read-only copy: exit %d: %s %s", code, out.String(), errOut.String())
	}
}
