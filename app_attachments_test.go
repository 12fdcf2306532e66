package main

import (
	"context"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/attach"
)

// A 1×1 PNG.
const tinyPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

func TestPromptWithAttachmentsIsShownAndSaved(t *testing.T) {
	a, rec, info := startDemoApp(t)
	if err := os.WriteFile(filepath.Join(info.Cwd, "notes.md"), []byte("# Notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(info.Cwd, "node_modules", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(info.Cwd, "node_modules", "x", "notes.md"), nil, 0o644); err != nil {
		t.Fatal(err)
	}

	files, err := a.sessions.ListFolderFiles(info.SessionID, "note")
	if err != nil || len(files) != 1 || files[0].Path != "notes.md" {
		t.Fatalf("ListFolderFiles = %+v, %v", files, err)
	}
	if _, err := a.sessions.ListFolderFiles("nope", ""); err == nil {
		t.Fatal("files of an unknown session were listed")
	}
	err = a.sessions.PromptWith(info.SessionID, "x", []attach.Attachment{{Kind: attach.KindFile, Path: "../elsewhere.txt"}})
	if err == nil || !strings.Contains(err.Error(), "cannot attach elsewhere.txt") {
		t.Fatalf("a file outside the folder: %v", err)
	}

	err = a.sessions.PromptWith(info.SessionID, "what is this?", []attach.Attachment{
		{Kind: attach.KindFile, Path: "notes.md"},
		{Kind: attach.KindImage, Name: "screenshot.png", MimeType: "image/png", Data: tinyPNG},
	})
	if err != nil {
		t.Fatal(err)
	}
	p := rec.waitFor(t, func(e acp.Event) bool { return e.Kind == acp.EventPermission })
	if err := a.sessions.AnswerPermission(info.SessionID, p.RequestID, "allow"); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, func(e acp.Event) bool { return e.Kind == acp.EventTurnEnd })

	snap, err := a.history.OpenHistory(info.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	user := snap.Entries[0]
	if user.Kind != acp.KindUser || len(user.Attachments) != 2 {
		t.Fatalf("saved user entry %+v", user)
	}
	file, img := user.Attachments[0], user.Attachments[1]
	if file.Name != "notes.md" || file.Sent != attach.SentEmbedded || file.Path != filepath.Join(info.Cwd, "notes.md") {
		t.Errorf("saved file attachment %+v", file)
	}
	if img.Name != "screenshot.png" || img.Sent != attach.SentImage || img.Width != 1 || !strings.HasPrefix(img.Thumbnail, "data:image/png;base64,") {
		t.Errorf("saved image attachment %+v", img)
	}
	if raw, _ := base64.StdEncoding.DecodeString(tinyPNG); img.Size != int64(len(raw)) {
		t.Errorf("image size %d, want %d", img.Size, len(raw))
	}
	md := transcriptMarkdown(snap.Entries)
	if !strings.Contains(md, "I see 2 attachments: notes.md (embedded, 8 B), a PNG image (1×1).") {
		t.Fatalf("the Demo agent did not acknowledge the attachments:\n%s", md)
	}
}

// TestChooseFileElsewhere: a file the person picks in the open dialog attaches though it is
// outside the session folder; a cancelled dialog attaches nothing.
func TestChooseFileElsewhere(t *testing.T) {
	t.Setenv("AGENTDESK_DB", t.TempDir()+"/history.db")
	t.Setenv("AGENTDESK_DEMO_PACE", "0s")
	elsewhere := filepath.Join(t.TempDir(), "spec.md")
	if err := os.WriteFile(elsewhere, []byte("# spec\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a, rec := newTestApp(t)
	defer a.shutdown(context.Background())
	pick := ""
	a.sessions.fileDialog = func(context.Context, runtime.OpenDialogOptions) (string, error) { return pick, nil }
	info, err := a.sessions.StartSession("demo", t.TempDir(), nil, false, false)
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, func(e acp.Event) bool { return e.Kind == acp.EventState && e.State == acp.StateIdle })
	if f, err := a.sessions.ChooseFileElsewhere(info.SessionID); err != nil || f.Path != "" {
		t.Fatalf("cancelled: %+v, %v", f, err)
	}
	if err := a.sessions.PromptWith(info.SessionID, "read", []attach.Attachment{{Kind: attach.KindFile, Path: elsewhere}}); err == nil {
		t.Fatal("a file outside the folder attached before it was chosen")
	}
	pick = elsewhere
	f, err := a.sessions.ChooseFileElsewhere(info.SessionID)
	if err != nil || f.Name != "spec.md" {
		t.Fatalf("chosen: %+v, %v", f, err)
	}
	if err := a.sessions.PromptWith(info.SessionID, "read", []attach.Attachment{{Kind: attach.KindFile, Path: f.Path}}); err != nil {
		t.Fatal(err)
	}
	user := rec.waitFor(t, func(e acp.Event) bool { return e.Kind == acp.EventEntry && e.Entry.Kind == acp.KindUser })
	if len(user.Entry.Attachments) != 1 || user.Entry.Attachments[0].Name != "spec.md" {
		t.Fatalf("the prompt's attachments: %+v", user.Entry.Attachments)
	}
}
