package main

import (
	"context"
	"log"
	"os"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"agentdesk/backend/hub"
)

// The folder verbs of Sessions: where the session form starts, the folders used before, the
// system's folder dialog, and the check that asks before a start in the home folder or /.

// maxRecentFolders is how many folders RecentFolders returns at most.
const maxRecentFolders = 8

// folderDialogFunc asks the user for a folder: the chosen path, or "" when they cancelled
// (runtime.OpenDirectoryDialog's signature; tests and e2e fake it).
type folderDialogFunc func(ctx context.Context, opts runtime.OpenDialogOptions) (string, error)

// DefaultFolder is the folder the session form starts with: the folder of the session started
// last when it still exists, else the user's home folder.
func (ss *Sessions) DefaultFolder() string {
	if recent, err := ss.RecentFolders(""); err == nil && len(recent) > 0 {
		return recent[0]
	}
	if home, err := os.UserHomeDir(); err == nil {
		return home
	}
	dir, _ := os.Getwd()
	return dir
}

// RecentFolders lists the project folders of saved sessions that still exist, the latest
// started in first, agentID's own first ("" for all agents alike); empty without a history.
func (ss *Sessions) RecentFolders(agentID string) ([]string, error) {
	if ss.store == nil {
		return []string{}, nil
	}
	ss.flushHistory()
	all, err := ss.store.RecentFolders(ss.ctx, agentID, 3*maxRecentFolders) // some may be gone
	if err != nil {
		log.Printf("agentdesk history: %v", err)
		return []string{}, nil // the form works without them
	}
	out := []string{}
	for _, dir := range all {
		if st, err := os.Stat(dir); err == nil && st.IsDir() && len(out) < maxRecentFolders {
			out = append(out, dir)
		}
	}
	return out, nil
}

// BrowseFolder opens the system's folder dialog at start and returns the chosen folder, or ""
// when the user cancelled.
func (ss *Sessions) BrowseFolder(start string) (string, error) {
	if ss.folderDialog == nil {
		return "", nil // no window (tests): as if cancelled
	}
	if c, err := hub.CheckFolder(start); err == nil {
		start = c.Path
	} else {
		start = ""
	}
	return ss.folderDialog(ss.ctx, runtime.OpenDialogOptions{Title: "Choose the project folder", DefaultDirectory: start,
		CanCreateDirectories: true})
}

// FolderCheck is a folder as a session would get it, and whether it is broad ("home": the home
// folder itself, "root": /), which the form asks the user to confirm before a start.
type FolderCheck hub.FolderCheck

// CheckFolder resolves cwd as StartSession would (~ expanded, absolute) and says whether it is
// broad; a folder that does not exist fails worded for the window.
func (ss *Sessions) CheckFolder(cwd string) (FolderCheck, error) {
	c, err := hub.CheckFolder(cwd)
	return FolderCheck(c), forWindow(err)
}
