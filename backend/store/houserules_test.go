package store

import (
	"context"
	"path/filepath"
	"testing"
)

// House rules are kept per agent and folder, survive a reopen, are replaced by a save and
// deleted by an empty one; another agent or folder sees none.
func TestHouseRulesPerAgentAndFolder(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "history.db")
	s := openTestAt(t, path)
	if err := s.SetHouseRules(ctx, "claude", "/src/app", "Use tabs."); err != nil {
		t.Fatal(err)
	}
	if err := s.SetHouseRules(ctx, "claude", "/src/app", "Use spaces."); err != nil {
		t.Fatal(err)
	}
	if err := s.SetHouseRules(ctx, "codex", "/src/app", "Be brief."); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openTestAt(t, path)
	for _, c := range []struct{ agent, folder, want string }{
		{"claude", "/src/app", "Use spaces."}, {"codex", "/src/app", "Be brief."}, {"claude", "/src/apple", ""}, {"gemini", "/src/app", ""},
	} {
		text, at, err := s.HouseRules(ctx, c.agent, c.folder)
		if err != nil || text != c.want || at.IsZero() != (c.want == "") {
			t.Errorf("house rules of %s in %s: %q at %v (%v), want %q", c.agent, c.folder, text, at, err, c.want)
		}
	}
	if err := s.SetHouseRules(ctx, "claude", "/src/app", ""); err != nil {
		t.Fatal(err)
	}
	if text, _, err := s.HouseRules(ctx, "claude", "/src/app"); text != "" || err != nil {
		t.Errorf("cleared rules read %q (%v)", text, err)
	}
}
