package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"agentdesk/backend/agents"
	"agentdesk/backend/atomicfile"
	"agentdesk/backend/export"
	"agentdesk/backend/store"
)

// The save-to-file verb of History: a saved session exported through the system's save dialog.
// The dialog is History.saveDialog (runtime.SaveFileDialog), so tests fake it; backend/export
// writes.

// saveDialogFunc asks the user where to save: the chosen path, or "" when they cancelled.
type saveDialogFunc func(ctx context.Context, opts runtime.SaveDialogOptions) (string, error)

// exportKinds describes each export format in the save dialog.
var exportKinds = map[string]struct{ name, pattern, ext string }{
	export.Markdown:    {"Markdown", "*.md", export.Markdown},
	export.JSON:        {"JSON", "*.json", export.JSON},
	export.Diagnostics: {"diagnostic bundle", "*.tar.gz", export.DiagnosticsExt},
}

// SaveHistoryExport renders a saved session as Markdown ("md") or JSON ("json"), or its
// diagnostic bundle for a bug report ("diagnostics": export.DiagnosticArchive, with a live
// session's stderr too), asks where to save it with the system's save dialog (suggesting a file
// named after the title, in the session's folder or else the home folder) and writes it there
// atomically. It returns the path written, or "" with no error when the user cancelled. A
// failure says what went wrong (the session cannot be read, the disk is full, the folder is not
// writable, ...) and what to do. Like ExportHistory, every secret value agentdesk knows is
// masked, in the file name too.
func (h *History) SaveHistoryExport(id, format string) (string, error) {
	kind, ok := exportKinds[format]
	if !ok {
		return "", fmt.Errorf("unknown export format %q: use md, json or diagnostics", format)
	}
	if h.store == nil {
		return "", h.dbErr
	}
	h.flushHistory()
	mask := h.catalog.Masker()
	s, data, err := h.render(mask, id, format)
	if errors.Is(err, store.ErrNotFound) {
		return "", fmt.Errorf("session %s is not in the history (it may have been deleted)", id)
	}
	if err != nil {
		return "", fmt.Errorf("could not export session %s: %w", id, err)
	}
	if h.saveDialog == nil {
		return "", errors.New("there is no window to show a save dialog in: use `agentdesk show --format " + format + "` instead")
	}
	name := mask.Mask(s.Title)
	if format == export.Diagnostics {
		name = export.DiagnosticsTitle(name)
	}
	path, err := h.saveDialog(h.ctx, runtime.SaveDialogOptions{
		Title:                "Save session as " + kind.name,
		DefaultDirectory:     exportFolder(s.Cwd),
		DefaultFilename:      export.FileName(name, kind.ext),
		Filters:              []runtime.FileFilter{{DisplayName: kind.name + " (" + kind.pattern + ")", Pattern: kind.pattern}},
		CanCreateDirectories: true,
	})
	if err != nil {
		return "", fmt.Errorf("could not open the save dialog: %w", err)
	}
	if path == "" {
		return "", nil // cancelled
	}
	path = export.WithExtension(path, kind.ext)
	if err := atomicfile.Write(path, data, 0o644); err != nil {
		return "", errors.New(export.DescribeSaveError(path, err))
	}
	return path, nil
}

// render is saved session id in format (a known one), masked with mask, with the row it was
// made from.
func (h *History) render(mask *agents.Masker, id, format string) (store.Session, []byte, error) {
	if format == export.Diagnostics {
		d, err := h.hub.Diagnose(h.ctx, id)
		if err != nil {
			return store.Session{}, nil, err
		}
		data, err := export.DiagnosticArchive(mask, d, time.Now())
		return d.Session, data, err
	}
	s, turns, entries, err := h.store.Session(h.ctx, id)
	if err != nil {
		return s, nil, err
	}
	perms, err := h.store.Permissions(h.ctx, id)
	if err != nil {
		return s, nil, err
	}
	text, err := export.Render(mask, s, turns, entries, perms, format)
	return s, []byte(text), err
}

// exportFolder is where the save dialog opens: the session's folder when it still exists, else
// the home folder, else wherever the dialog likes ("").
func exportFolder(cwd string) string {
	if st, err := os.Stat(cwd); cwd != "" && err == nil && st.IsDir() {
		return cwd
	}
	if home, err := os.UserHomeDir(); err == nil {
		if st, err := os.Stat(home); err == nil && st.IsDir() {
			return home
		}
	}
	return ""
}
