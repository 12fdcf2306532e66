package acp

import (
	"agentdesk/backend/acp/attach"
	"agentdesk/backend/acp/fsys"
	"fmt"
	"os"
	"path/filepath"
)

// AllowFile lets a prompt of this session attach path, a file outside the session's folders
// that the person chose themselves (the window's open dialog), and returns what the picker
// shows of it (its real path, symlinks resolved). Only files allowed so are ever read from
// outside the folders; an agent cannot add one. It fails for a path that is not a regular file.
func (s *Session) AllowFile(path string) (fsys.FolderFile, error) {
	real, err := filepath.EvalSymlinks(filepath.Clean(path))
	if err != nil {
		return fsys.FolderFile{}, &attach.Error{Name: filepath.Base(path), Reason: attach.Missing, Detail: fmt.Sprintf("%s does not exist", path)}
	}
	st, err := os.Stat(real)
	if err != nil || !st.Mode().IsRegular() {
		return fsys.FolderFile{}, &attach.Error{Name: filepath.Base(path), Reason: attach.NotRegular, Detail: "it is not a regular file"}
	}
	s.mu.Lock()
	if s.allowedFiles == nil {
		s.allowedFiles = map[string]bool{}
	}
	s.allowedFiles[real] = true
	s.unlock()
	return fsys.FolderFile{Path: real, Name: filepath.Base(real), Size: st.Size()}, nil
}
