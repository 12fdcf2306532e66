package store

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestRecentFoldersPerAgent: the folders of saved sessions come once each, the asking agent's
// first, then the others', newest first.
func TestRecentFoldersPerAgent(t *testing.T) {
	ctx := context.Background()
	s := openTestAt(t, filepath.Join(t.TempDir(), "history.db"))
	at := time.UnixMilli(1_700_000_000_000)
	w := s.Writer()
	for i, r := range []struct{ id, agent, cwd string }{
		{"1", "claude", "/src/old"},
		{"2", "demo", "/src/web"},
		{"3", "claude", "/src/app"},
		{"4", "demo", "/src/app"},
		{"5", "demo", "/tmp/x"},
		{"6", "claude", ""},
	} {
		w.CreateSession(Session{ID: r.id, AgentID: r.agent, Cwd: r.cwd, CreatedAt: at.Add(time.Duration(i) * time.Minute), UpdatedAt: at})
	}
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		agent string
		limit int
		want  []string
	}{
		{"claude", 0, []string{"/src/app", "/src/old", "/tmp/x", "/src/web"}},
		{"demo", 0, []string{"/tmp/x", "/src/app", "/src/web", "/src/old"}},
		{"", 2, []string{"/tmp/x", "/src/app"}},
	} {
		got, err := s.RecentFolders(ctx, c.agent, c.limit)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("RecentFolders(%q, %d) = %v, %v, want %v", c.agent, c.limit, got, err, c.want)
		}
	}
}
