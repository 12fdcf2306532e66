package acp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/attach"
)

// TestAttachAFileChosenElsewhere: a file outside the session folder attaches once the person
// chose it (AllowFile); one they did not choose, beside it, is still refused, and a folder
// cannot be chosen.
func TestAttachAFileChosenElsewhere(t *testing.T) {
	dir, outside := project(t)
	s, ev, a := startCapsAgent(t, dir, map[string]any{"embeddedContext": true})
	other := filepath.Join(filepath.Dir(outside), "other.txt")
	must(t, os.WriteFile(other, []byte("not chosen"), 0o644))
	if _, err := s.AllowFile(filepath.Dir(outside)); err == nil {
		t.Error("a folder was allowed")
	}
	chosen, err := s.AllowFile(outside)
	if err != nil || chosen.Name != "secret.txt" || chosen.Size == 0 {
		t.Fatalf("AllowFile: %+v, %v", chosen, err)
	}
	if _, err := s.PromptWith("no", []attach.Attachment{{Kind: attach.KindFile, Path: other}}); err == nil || !strings.Contains(err.Error(), "is outside the session folder") {
		t.Fatalf("a file nobody chose: %v", err)
	}
	if _, err := s.PromptWith("look", []attach.Attachment{{Kind: attach.KindFile, Path: chosen.Path}}); err != nil {
		t.Fatal(err)
	}
	blocks := <-a.prompts
	if len(blocks) != 2 || !strings.Contains(string(blocks[1]), `"uri":"file://`+chosen.Path+`"`) {
		t.Fatalf("sent %s", blocks)
	}
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
}
