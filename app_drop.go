package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/attach"
	"agentdesk/backend/acp/fsys"
)

// Files dropped on the window. Wails hands the Go side the paths of a native drop (GTK's
// drag-drop, never the page's script: a drop event the page forges reaches Go with its paths as
// JSON values, which Wails' OnFileDrop does not pass on as paths), and fileDropped remembers them
// and tells the page. The page then asks AttachDropped to attach them to the session it shows.
// Only a path that was dropped is ever attached from outside the session's folders, as with the
// open dialog of ChooseFileElsewhere: the page alone cannot make a file readable.

// filesDroppedEvent is the event fileDropped sends the page: a FilesDropped.
const filesDroppedEvent = "app:files-dropped"

// FilesDropped is the payload of filesDroppedEvent: the absolute paths the person dropped.
type FilesDropped struct {
	Paths []string `json:"paths"`
}

// DroppedFiles is what AttachDropped could attach, and why each other path could not be.
type DroppedFiles struct {
	Files    []fsys.FolderFile `json:"files"`
	Problems []string          `json:"problems"`
}

// dropValid is how long a dropped path may be attached after the drop: the page asks at once,
// so this only bounds what a stale page could still attach.
const dropValid = 2 * time.Minute

// maxDropped is how many dropped paths are remembered at once (a drop of a thousand files
// attaches the first of them).
const maxDropped = 256

// dropBox remembers the paths of recent native drops until they are attached or expire. The
// zero value is ready; safe for concurrent use (Wails calls fileDropped on its own goroutine).
type dropBox struct {
	mu    sync.Mutex
	now   func() time.Time // nil: time.Now
	paths map[string]time.Time
}

// put remembers the absolute paths among paths (each once, at most maxDropped in all) and
// returns them.
func (d *dropBox) put(paths []string) []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	now := d.clock()
	d.expireLocked(now)
	if d.paths == nil {
		d.paths = map[string]time.Time{}
	}
	var kept []string
	for _, p := range paths {
		if p == "" || !filepath.IsAbs(p) || strings.ContainsRune(p, 0) || len(d.paths) >= maxDropped {
			continue
		}
		p = filepath.Clean(p)
		if !slices.Contains(kept, p) {
			kept = append(kept, p)
		}
		d.paths[p] = now
	}
	return kept
}

// take reports whether path was dropped within dropValid, and forgets it.
func (d *dropBox) take(path string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.expireLocked(d.clock())
	p := filepath.Clean(path)
	_, ok := d.paths[p]
	delete(d.paths, p)
	return ok
}

func (d *dropBox) expireLocked(now time.Time) {
	for p, at := range d.paths {
		if now.Sub(at) > dropValid {
			delete(d.paths, p)
		}
	}
}

func (d *dropBox) clock() time.Time {
	if d.now != nil {
		return d.now()
	}
	return time.Now()
}

// fileDropped is Wails' OnFileDrop callback (registered in startup): it remembers the dropped
// paths and sends them to the page as filesDroppedEvent.
func (ss *Sessions) fileDropped(_, _ int, paths []string) {
	kept := ss.drops.put(paths)
	if len(kept) == 0 {
		return
	}
	ss.emit(ss.ctx, filesDroppedEvent, FilesDropped{Paths: kept})
}

// AttachDropped makes the dropped paths attachable to the live session sessionID and returns
// them as the composer lists files: a file in the session's folders by its path relative to the
// working folder, one from elsewhere by its real path (acp.Session.AllowFile). A path that was
// not dropped on the window (or was dropped over two minutes ago), a folder or a missing file is
// not attached; Problems says why, one line each. It fails only for a session that is not live.
func (ss *Sessions) AttachDropped(sessionID string, paths []string) (DroppedFiles, error) {
	return withLive(ss.core, sessionID, func(s *acp.Session) (DroppedFiles, error) {
		out := DroppedFiles{Files: []fsys.FolderFile{}, Problems: []string{}}
		for _, p := range paths {
			f, err := attachDropped(s, &ss.drops, p)
			if err != nil {
				out.Problems = append(out.Problems, forWindow(err).Error())
				continue
			}
			out.Files = append(out.Files, f)
		}
		return out, nil
	})
}

// attachDropped checks that path was dropped, then lets s attach it. Its errors are
// *attach.Errors, which forWindow words with what to do.
func attachDropped(s *acp.Session, drops *dropBox, path string) (fsys.FolderFile, error) {
	name := filepath.Base(path)
	if !drops.take(path) {
		return fsys.FolderFile{}, &attach.Error{Name: name, Reason: attach.Missing,
			Detail: "it was not dropped on the window just now"}
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fsys.FolderFile{}, &attach.Error{Name: name, Reason: attach.IsFolder, Detail: "it is a folder"}
	}
	f, err := s.AllowFile(path)
	if err != nil {
		return fsys.FolderFile{}, err
	}
	if cwd, err := filepath.EvalSymlinks(s.Cwd()); err == nil {
		if rel, err := filepath.Rel(cwd, f.Path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			f.Path = filepath.ToSlash(rel) // as the file picker names it
		}
	}
	return f, nil
}
