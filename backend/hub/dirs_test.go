package hub

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"agentdesk/backend/acp"
)

// A session's additional folders are checked before it starts (a missing one fails the start,
// naming it), kept with it in the history without repeats or cwd, and given to the engine.
func TestStartWithAdditionalFolders(t *testing.T) {
	dir := t.TempDir()
	lib := t.TempDir()
	ctx := context.Background()
	st := openTestStore(t, filepath.Join(dir, "history.db"))
	defer st.Close()
	h := New(st, agentList{scriptAgent(t, dir, "a", `[{"expect":"initialize"},
 {"reply":{"protocolVersion":1,"agentCapabilities":{"sessionCapabilities":{"additionalDirectories":{}}}}},
 {"expect":"session/new"}, {"reply":{"sessionId":"d1"}}]`)}, t.Logf)
	defer h.CloseAll(ctx)

	missing := filepath.Join(dir, "gone")
	if _, _, err := h.Start(StartRequest{AgentID: "a", Cwd: dir, Dirs: []string{missing}}, acp.EmitterFunc(func(acp.Event) {})); err == nil ||
		!strings.Contains(err.Error(), missing) {
		t.Fatalf("start with a missing additional folder: %v", err)
	}
	out, states := stateEvents()
	s, _, err := h.Start(StartRequest{AgentID: "a", Cwd: dir, Dirs: []string{lib, dir, lib}}, out)
	if err != nil {
		t.Fatal(err)
	}
	waitState(t, states, acp.StateIdle)
	if got := s.Snapshot().Dirs; !slices.Equal(got, []string{lib}) {
		t.Fatalf("live dirs %q, want just %s", got, lib)
	}
	if err := st.Writer().Flush(ctx); err != nil {
		t.Fatal(err)
	}
	sess, _, _, err := st.Session(ctx, s.ID())
	if err != nil || !slices.Equal(sess.Dirs, []string{lib}) {
		t.Fatalf("saved dirs %q (%v)", sess.Dirs, err)
	}
}
