//go:build unix

package changes

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
)

// racyWindow: a file changed this close to a snapshot is read again by the next one even if
// its size and time match (its time may not have moved with a later change).
const racyWindow = time.Second

// maxNotes bounds a snapshot's notes (the rest are counted).
const maxNotes = 20

// stuckGrace is how long Snapshot waits, once its context has ended, for a walk that is inside a
// system call (a file system that does not answer): after it the walk is left behind.
const stuckGrace = 2 * time.Second

// errCut is a walk that stopped because its context ended: what it did not reach is kept as the
// last snapshot had it.
var errCut = errors.New("the snapshot was cut short")

// Snapshot records folder root (absolute) as it is now and returns its tree. Unchanged files
// are not read again (the folder's last snapshot is the stat cache) and content already stored
// is not stored twice. It never enters a .git directory, follows no symbolic link, and skips
// what git would ignore. Every name is opened relative to its open folder, without blocking
// and without following a link, and checked on the descriptor: a FIFO, socket or device is
// listed in a note and not recorded, never read. A folder that does not exist is an error; a
// file or directory that cannot be read is kept as the last snapshot had it (or left out) with
// a note.
//
// When ctx ends first the snapshot is cut short (Snap.Partial, with a note). Snapshot returns
// at most stuckGrace after ctx ends whatever the walk is doing: a walk stuck in a system call
// is left behind (ErrSnapshotStuck), and the folder's next snapshot waits for it only as long
// as its own ctx lets it.
func (l *Ledger) Snapshot(ctx context.Context, root string) (Snap, error) {
	unlock, err := l.lockRoot(ctx, root)
	if err != nil {
		return Snap{}, fmt.Errorf("snapshot %s: %w", root, err)
	}
	type result struct {
		s   Snap
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer unlock()
		s, err := l.snapshot(ctx, root)
		done <- result{s, err}
	}()
	select {
	case r := <-done:
		return r.s, r.err
	case <-ctx.Done():
	}
	// The walk sees the end between two system calls and returns what it has.
	t := time.NewTimer(stuckGrace)
	defer t.Stop()
	select {
	case r := <-done:
		return r.s, r.err
	case <-t.C:
		return Snap{}, fmt.Errorf("snapshot %s: %w", root, ErrSnapshotStuck)
	}
}

// snapshot is Snapshot's walk; the caller holds the folder's lock.
func (l *Ledger) snapshot(ctx context.Context, root string) (Snap, error) {
	rootDir, err := os.OpenFile(root, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return Snap{}, fmt.Errorf("snapshot %s: %w", root, err)
	}
	defer rootDir.Close()
	rootFd, err := rawFd(rootDir)
	if err != nil {
		return Snap{}, fmt.Errorf("snapshot %s: %w", root, err)
	}
	start := l.opt.Now()
	w := &walker{l: l, ctx: ctx, racy: start.Add(-racyWindow).UnixNano(), slots: make(chan struct{}, walkers),
		own: ownBeneath(root, append([]string{l.dir}, l.opt.Own...))}
	base := &rules{patterns: l.opt.Global}
	if data := w.readInfoExclude(rootFd); data != nil {
		base = base.with(data, nil)
	}
	last := l.last(root)
	prev, _ := l.tree(last) // no cache is no error: everything is read
	tree, err := w.dir(rootFd, nil, last, prev, base)
	if errors.Is(err, errCut) {
		tree, err = last, nil
		if tree == "" {
			tree, err = w.store(nil, "")
		}
	}
	if err != nil {
		return Snap{}, fmt.Errorf("snapshot %s: %w", root, err)
	}
	tree, stored, err := l.withExclude(root, tree) // rulefiles.go
	if err != nil {
		return Snap{}, fmt.Errorf("snapshot %s: %w", root, err)
	}
	w.stored.Add(stored)
	l.setLast(root, tree)
	snap := Snap{Root: root, Tree: tree, Notes: w.notes, Files: int(w.files.Load()), Read: int(w.read.Load()), Stored: w.stored.Load(), Partial: w.cut.Load()}
	sort.Strings(snap.Notes) // walked in parallel: the order says nothing
	if w.dropped > 0 {
		snap.Notes = append(snap.Notes, fmt.Sprintf("…and %d more", w.dropped))
	}
	if snap.Partial {
		snap.Notes = append(snap.Notes, cutNote(ctx, root, l.opt.Now().Sub(start)))
	}
	return snap, nil
}

// cutNote says why a snapshot of root stopped early, after d.
func cutNote(ctx context.Context, root string, d time.Duration) string {
	why := "it was stopped"
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		why = fmt.Sprintf("it ran out of time after %s", d.Round(time.Second))
	}
	return fmt.Sprintf("the snapshot of %s was cut short (%s): what it did not reach is not recorded", root, why)
}

// rawFd is f's descriptor, without putting it in blocking mode as File.Fd does.
func rawFd(f *os.File) (int, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return -1, err
	}
	fd := -1
	if err := rc.Control(func(u uintptr) { fd = int(u) }); err != nil {
		return -1, err
	}
	return fd, nil
}

// relPath joins path components; "." for the folder itself.
// ownBeneath are the paths of own that lie beneath root, relative to it and slash-separated
// (as relPath writes them); links in either are resolved first, as the walk opens root.
func ownBeneath(root string, own []string) map[string]bool {
	resolve := func(p string) string {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return r
		}
		if r, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil { // a -wal not made yet
			return filepath.Join(r, filepath.Base(p))
		}
		return filepath.Clean(p)
	}
	root = resolve(root)
	var in map[string]bool
	for _, p := range own {
		rel, err := filepath.Rel(root, resolve(p))
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		if in == nil {
			in = map[string]bool{}
		}
		in[filepath.ToSlash(rel)] = true
	}
	return in
}

func relPath(rel []string) string {
	if len(rel) == 0 {
		return "."
	}
	return strings.Join(rel, "/")
}

// unwrapPath drops the path an *fs.PathError repeats (the note names it already).
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// humanSize words a byte count.
func humanSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f kB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
