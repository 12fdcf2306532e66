package hub

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"

	"agentdesk/backend/acp/fsys"
)

// SessionFolders returns a session's folders, the working folder first: a live session's as it
// was started, a saved one's as the history keeps them. An unknown session is an error.
func (h *Hub) SessionFolders(ctx context.Context, id string) ([]string, error) {
	h.mu.Lock()
	started := h.starts[id]
	h.mu.Unlock()
	if started != nil {
		return append([]string{started.cwd}, started.dirs...), nil
	}
	if h.store == nil {
		return nil, &NoLiveSessionError{ID: id}
	}
	s, _, err := h.store.SessionTurns(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("session %s: %w", id, err)
	}
	return append([]string{s.Cwd}, s.Dirs...), nil
}

// FileInSession resolves path (absolute, or relative to the working folder) to a regular file
// inside one of session id's folders, confined as the engine confines attachments
// (acp.Folders: symlinks followed), and returns its real path. A path outside them, missing, or
// not a file is an error that says so.
func (h *Hub) FileInSession(ctx context.Context, id, path string) (string, error) {
	folders, err := h.SessionFolders(ctx, id)
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(folders[0], path)
	}
	fs, err := fsys.NewFolders(folders[0], folders[1:])
	if err != nil {
		return "", err
	}
	defer fs.Close()
	real, err := fs.Resolve(filepath.Clean(path))
	if err != nil {
		return "", fmt.Errorf("%s is outside the session's folders", path)
	}
	switch st, err := os.Stat(real); {
	case errors.Is(err, iofs.ErrNotExist):
		return "", fmt.Errorf("%s does not exist (was it moved or deleted?)", path)
	case err != nil:
		var pe *iofs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is said once
		}
		return "", fmt.Errorf("%s: %w", path, err)
	case !st.Mode().IsRegular():
		return "", fmt.Errorf("%s is not a file", path)
	}
	return real, nil
}
