package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/attach"
)

// TestAttachDropped: files dropped on the window attach to the live session, one from its folder
// by its relative path and one from elsewhere by its real path; a path that was not dropped, a
// folder and a drop taken twice are refused, each named, and nothing else is lost.
func TestAttachDropped(t *testing.T) {
	a, rec, info := startDemoApp(t)
	inside := filepath.Join(info.Cwd, "notes.md")
	elsewhereDir := t.TempDir()
	elsewhere := filepath.Join(elsewhereDir, "spec.md")
	never := filepath.Join(elsewhereDir, "secret.txt")
	for _, p := range []string{inside, elsewhere, never} {
		if err := os.WriteFile(p, []byte("# "+filepath.Base(p)+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	a.sessions.fileDropped(10, 20, []string{inside, elsewhere, elsewhereDir, "relative.txt", inside})
	drop := <-rec.drops
	if want := []string{inside, elsewhere, elsewhereDir}; !slices.Equal(drop.Paths, want) {
		t.Fatalf("the page was told %q, want %q (relative paths dropped, each path once)", drop.Paths, want)
	}

	got, err := a.sessions.AttachDropped(info.SessionID, []string{inside, elsewhere, elsewhereDir, never})
	if err != nil {
		t.Fatal(err)
	}
	realElsewhere, _ := filepath.EvalSymlinks(elsewhere)
	if len(got.Files) != 2 || got.Files[0].Path != "notes.md" || got.Files[1].Path != realElsewhere {
		t.Fatalf("attached %+v", got.Files)
	}
	if len(got.Problems) != 2 || !strings.Contains(got.Problems[0], "cannot attach "+filepath.Base(elsewhereDir)+": it is a folder") ||
		!strings.Contains(got.Problems[1], "cannot attach secret.txt: it was not dropped on the window") {
		t.Fatalf("problems %q", got.Problems)
	}
	again, err := a.sessions.AttachDropped(info.SessionID, []string{elsewhere})
	if err != nil || len(again.Files) != 0 || len(again.Problems) != 1 {
		t.Fatalf("a drop taken twice: %+v, %v", again, err)
	}
	if err := a.sessions.PromptWith(info.SessionID, "read", []attach.Attachment{{Kind: attach.KindFile, Path: never}}); err == nil {
		t.Fatal("a file that was never dropped was attached from outside the folder")
	}

	err = a.sessions.PromptWith(info.SessionID, "read these", []attach.Attachment{
		{Kind: attach.KindFile, Path: got.Files[0].Path}, {Kind: attach.KindFile, Path: got.Files[1].Path}})
	if err != nil {
		t.Fatal(err)
	}
	user := rec.waitFor(t, func(e acp.Event) bool { return e.Kind == acp.EventEntry && e.Entry.Kind == acp.KindUser })
	if len(user.Entry.Attachments) != 2 || user.Entry.Attachments[1].Name != "spec.md" {
		t.Fatalf("the prompt's attachments: %+v", user.Entry.Attachments)
	}

	if _, err := a.sessions.AttachDropped("no-such-session", []string{inside}); err == nil {
		t.Fatal("dropped files attached to a session that is not live")
	}
}

// TestDropBoxForgets: a dropped path can be taken once, within dropValid of its drop, and no
// more than maxDropped paths are kept.
func TestDropBoxForgets(t *testing.T) {
	now := time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)
	d := dropBox{now: func() time.Time { return now }}
	d.put([]string{"/a", "/b", "/c\x00d"})
	if d.take("/c\x00d") {
		t.Fatal("a path with a NUL was kept")
	}
	if !d.take("/a/../a") {
		t.Fatal("a dropped path, spelled uncleaned, was not found")
	}
	if d.take("/a") {
		t.Fatal("a dropped path was taken twice")
	}
	now = now.Add(dropValid + time.Second)
	if d.take("/b") {
		t.Fatal("a drop older than dropValid was taken")
	}

	many := make([]string, maxDropped+10)
	for i := range many {
		many[i] = filepath.Join("/drop", strings.Repeat("x", i+1))
	}
	if kept := d.put(many); len(kept) != maxDropped || d.take(many[maxDropped]) {
		t.Fatalf("kept %d of %d paths, want %d", len(kept), len(many), maxDropped)
	}
}
