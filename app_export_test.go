package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/store"
	"agentdesk/internal/asnobody"
)

// fakeDialog stands in for the save dialog: it answers with path (or err) and keeps what it
// was asked.
type fakeDialog struct {
	path  string
	err   error
	asked []runtime.SaveDialogOptions
}

func (d *fakeDialog) show(_ context.Context, opts runtime.SaveDialogOptions) (string, error) {
	d.asked = append(d.asked, opts)
	return d.path, d.err
}

// savedSessionApp is an App whose history holds one finished session titled title in cwd; it
// returns the session's id. Saving goes through dialog.
func savedSessionApp(t *testing.T, title, cwd string, dialog *fakeDialog) (*App, string) {
	t.Helper()
	t.Setenv("AGENTDESK_DB", filepath.Join(t.TempDir(), "history.db"))
	t.Setenv("AGENTDESK_NO_LOGIN_ENV", "1")
	a, _ := newTestApp(t)
	t.Cleanup(func() { a.shutdown(context.Background()) })
	a.history.saveDialog = dialog.show
	id, now := "3f6c1f9e-export", time.Now()
	w := a.store.Writer()
	w.CreateSession(store.Session{ID: id, AgentID: "demo", AgentName: "Demo agent", Cwd: cwd, Title: title,
		Outcome: schema.StopEndTurn, CreatedAt: now, UpdatedAt: now})
	w.StartTurn(store.Turn{SessionID: id, Turn: 1, Prompt: "fix the build", StartedAt: now})
	body, _ := json.Marshal(acp.Entry{ID: "u1", Kind: acp.KindUser, Turn: 1, Text: "fix the build"})
	w.UpsertEntry(store.Entry{SessionID: id, EntryID: "u1", Turn: 1, Seq: 1, Kind: string(acp.KindUser), Text: "fix the build", Body: body})
	w.EndTurn(id, 1, schema.StopEndTurn, "", now)
	if err := w.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	return a, id
}

func TestSaveHistoryExportWritesTheFileTheUserChose(t *testing.T) {
	cwd, out := t.TempDir(), t.TempDir()
	dialog := &fakeDialog{path: filepath.Join(out, "build.md")}
	a, id := savedSessionApp(t, "Fix src/main.go\nplease", cwd, dialog)

	path, err := a.history.SaveHistoryExport(id, "md")
	if err != nil || path != dialog.path {
		t.Fatalf("SaveHistoryExport = %q, %v; want %q", path, err, dialog.path)
	}
	opts := dialog.asked[0]
	if opts.DefaultDirectory != cwd || opts.DefaultFilename != "Fix src-main.go please.md" ||
		len(opts.Filters) != 1 || opts.Filters[0].Pattern != "*.md" || !strings.Contains(opts.Title, "Markdown") {
		t.Fatalf("the dialog was asked %+v", opts)
	}
	data, err := os.ReadFile(path)
	if err != nil || !strings.HasPrefix(string(data), "# Fix src/main.go please\n") || !strings.Contains(string(data), "*Turn 1 ended: end_turn*") {
		t.Fatalf("saved file (%v):\n%s", err, data)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v, want 0644", st.Mode().Perm())
	}

	// Saving again replaces the file whole; nothing else is left in the folder.
	if err := os.WriteFile(path, []byte(strings.Repeat("old text that is longer than the export ", 100)), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := a.history.SaveHistoryExport(id, "md"); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(path); string(again) != string(data) {
		t.Fatalf("the replaced file reads:\n%s", again)
	}
	if names := dirNames(t, out); len(names) != 1 {
		t.Fatalf("the folder holds %v, want only build.md", names)
	}

	// JSON, to a name typed without an extension; the session's folder is gone: home instead.
	home := t.TempDir()
	t.Setenv("HOME", home)
	if err := os.RemoveAll(cwd); err != nil {
		t.Fatal(err)
	}
	dialog.path = filepath.Join(out, "session")
	path, err = a.history.SaveHistoryExport(id, "json")
	if err != nil || path != filepath.Join(out, "session.json") {
		t.Fatalf("SaveHistoryExport json = %q, %v", path, err)
	}
	if opts := dialog.asked[2]; opts.DefaultDirectory != home || opts.DefaultFilename != "Fix src-main.go please.json" || opts.Filters[0].Pattern != "*.json" {
		t.Fatalf("the dialog was asked %+v", opts)
	}
	var doc struct {
		ID      string
		Entries []acp.Entry
	}
	if raw, err := os.ReadFile(path); err != nil || json.Unmarshal(raw, &doc) != nil || doc.ID != id || len(doc.Entries) != 1 {
		t.Fatalf("saved JSON (%v): %+v", err, doc)
	}
}

func TestSaveHistoryExportCancelledOrRefused(t *testing.T) {
	dialog := &fakeDialog{}
	a, id := savedSessionApp(t, "x", t.TempDir(), dialog)
	if path, err := a.history.SaveHistoryExport(id, "md"); path != "" || err != nil {
		t.Fatalf("a cancelled dialog gave %q, %v; want nothing", path, err)
	}
	dialog.err = errors.New("no display")
	if _, err := a.history.SaveHistoryExport(id, "md"); err == nil || !strings.Contains(err.Error(), "save dialog") {
		t.Fatalf("a dialog that failed: %v", err)
	}
	asked := len(dialog.asked)
	if _, err := a.history.SaveHistoryExport(id, "pdf"); err == nil || !strings.Contains(err.Error(), "md, json or diagnostics") {
		t.Fatalf("an unknown format: %v", err)
	}
	if _, err := a.history.SaveHistoryExport("no-such-id", "md"); err == nil || !strings.Contains(err.Error(), "not in the history") {
		t.Fatalf("an unknown session: %v", err)
	}
	if len(dialog.asked) != asked {
		t.Fatal("the dialog was shown for an export that could not be made")
	}
}

func TestSaveHistoryExportIntoAFolderThatCannotExist(t *testing.T) {
	out := t.TempDir()
	file := filepath.Join(out, "notes.txt")
	if err := os.WriteFile(file, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	dialog := &fakeDialog{path: filepath.Join(file, "export.md")} // "inside" a file: even root cannot
	a, id := savedSessionApp(t, "x", t.TempDir(), dialog)
	_, err := a.history.SaveHistoryExport(id, "md")
	if err == nil || !strings.Contains(err.Error(), dialog.path) || !strings.Contains(err.Error(), "Choose an existing folder") {
		t.Fatalf("saving under a file: %v", err)
	}
	if data, _ := os.ReadFile(file); string(data) != "mine" || len(dirNames(t, out)) != 1 {
		t.Fatal("a failed save changed the folder")
	}
}

func TestSaveHistoryExportIntoAReadOnlyFolder(t *testing.T) {
	if asnobody.Rerun(t) {
		return
	}
	out := t.TempDir()
	old := filepath.Join(out, "session.md")
	if err := os.WriteFile(old, []byte("the earlier export"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(out, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(out, 0o755) })
	dialog := &fakeDialog{path: old}
	a, id := savedSessionApp(t, "x", t.TempDir(), dialog)
	_, err := a.history.SaveHistoryExport(id, "md")
	if err == nil || !strings.Contains(err.Error(), old) || !strings.Contains(err.Error(), "you may not write to the folder "+out) {
		t.Fatalf("saving into a read-only folder: %v", err)
	}
	if data, _ := os.ReadFile(old); string(data) != "the earlier export" || len(dirNames(t, out)) != 1 {
		t.Fatal("a failed save changed the folder")
	}
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	list, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range list {
		names = append(names, e.Name())
	}
	return names
}

// TestSaveDiagnosticsWritesTheBundle (issue 31): the history row's "Save diagnostics…" asks
// where with a .tar.gz name of the session's, and writes the bundle there (a name typed without
// an extension gets it).
func TestSaveDiagnosticsWritesTheBundle(t *testing.T) {
	out := t.TempDir()
	dialog := &fakeDialog{path: filepath.Join(out, "bug")}
	a, id := savedSessionApp(t, "Fix the build", t.TempDir(), dialog)
	path, err := a.history.SaveHistoryExport(id, "diagnostics")
	if err != nil || path != filepath.Join(out, "bug.tar.gz") {
		t.Fatalf("SaveHistoryExport diagnostics = %q, %v", path, err)
	}
	if opts := dialog.asked[0]; opts.DefaultFilename != "Fix the build diagnostics.tar.gz" || opts.Filters[0].Pattern != "*.tar.gz" {
		t.Fatalf("the dialog was asked %+v", opts)
	}
	data, err := os.ReadFile(path)
	if err != nil || len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		t.Fatalf("the bundle is not gzip (%v): % x", err, data[:min(len(data), 8)])
	}
}
