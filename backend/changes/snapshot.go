package changes

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Snap is one snapshot of one folder.
type Snap struct {
	Root string
	Tree Hash
	// Notes are what the snapshot could not keep or read, worded for a person.
	Notes []string
	// Files counts the files recorded, Read those read (the rest matched the last snapshot's
	// size and time), Stored the bytes newly written to the store.
	Files, Read int
	Stored      int64
}

// racyWindow: a file changed this close to a snapshot is read again by the next one even if
// its size and time match (its time may not have moved with a later change).
const racyWindow = time.Second

// maxNotes bounds a snapshot's notes (the rest are counted).
const maxNotes = 20

// Snapshot records folder root (absolute) as it is now and returns its tree. Unchanged files
// are not read again (the folder's last snapshot is the stat cache) and content already stored
// is not stored twice. It never enters a .git directory, follows no symbolic link, and skips
// what git would ignore. A folder that does not exist is an error; a file or directory that
// cannot be read is kept as the last snapshot had it (or left out) with a note.
func (l *Ledger) Snapshot(ctx context.Context, root string) (Snap, error) {
	m := l.lockRoot(root)
	defer m.Unlock()
	r, err := os.OpenRoot(root)
	if err != nil {
		return Snap{}, fmt.Errorf("snapshot %s: %w", root, err)
	}
	defer r.Close()
	w := &walker{l: l, ctx: ctx, root: r, racy: l.opt.Now().Add(-racyWindow).UnixNano(), slots: make(chan struct{}, walkers)}
	base := &rules{patterns: l.opt.Global}
	if data, err := readRootCapped(r, ".git/info/exclude"); err == nil {
		base = base.with(data, nil)
	}
	last := l.last(root)
	prev, _ := l.tree(last) // no cache is no error: everything is read
	tree, err := w.dir(nil, last, prev, base)
	if err != nil {
		return Snap{}, fmt.Errorf("snapshot %s: %w", root, err)
	}
	tree, stored, err := l.withExclude(root, tree) // rulefiles.go
	if err != nil {
		return Snap{}, fmt.Errorf("snapshot %s: %w", root, err)
	}
	w.stored.Add(stored)
	l.setLast(root, tree)
	snap := Snap{Root: root, Tree: tree, Notes: w.notes, Files: int(w.files.Load()), Read: int(w.read.Load()), Stored: w.stored.Load()}
	sort.Strings(snap.Notes) // walked in parallel: the order says nothing
	if w.dropped > 0 {
		snap.Notes = append(snap.Notes, fmt.Sprintf("…and %d more", w.dropped))
	}
	return snap, nil
}

// walker is one snapshot's walk. Subdirectories are walked in parallel (up to walkers at a
// time: the walk waits on system calls more than on the CPU), so its counters are atomic.
type walker struct {
	l     *Ledger
	ctx   context.Context
	root  *os.Root
	racy  int64 // files with a later mtime are marked racy
	slots chan struct{}

	files, read, stored atomic.Int64

	mu      sync.Mutex
	notes   []string
	dropped int // notes past maxNotes
}

// walkers bounds the directories walked at once by one snapshot.
const walkers = 4

func (w *walker) note(format string, args ...any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.notes) >= maxNotes {
		w.dropped++
		return
	}
	w.notes = append(w.notes, fmt.Sprintf(format, args...))
}

// spawn reports whether another goroutine may walk a directory now (the caller then calls
// done when it has).
func (w *walker) spawn() bool {
	select {
	case w.slots <- struct{}{}:
		return true
	default:
		return false
	}
}

func (w *walker) done() { <-w.slots }

// dir records directory rel (path components beneath the folder) given its entries in the last
// snapshot, and returns its tree.
func (w *walker) dir(rel []string, prevHash Hash, prev []entry, rs *rules) (Hash, error) {
	if err := w.ctx.Err(); err != nil {
		return "", err
	}
	name := relPath(rel)
	f, err := w.root.Open(name)
	if err != nil {
		return "", err
	}
	des, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return "", err
	}
	old := make(map[string]*entry, len(prev))
	for i := range prev {
		old[prev[i].name] = &prev[i]
	}
	for _, de := range des {
		if de.Name() == ".gitignore" && de.Type().IsRegular() {
			if data, err := readRootCapped(w.root, path.Join(name, ".gitignore")); err == nil {
				rs = rs.with(data, rel)
			}
			break
		}
	}
	type slot struct {
		e   entry
		ok  bool
		err error
	}
	slots := make([]slot, len(des))
	var wg sync.WaitGroup
	for i, de := range des {
		n := de.Name()
		if n == ".git" { // the user's repository (or a worktree's pointer to one): never touched
			continue
		}
		child := append(rel[:len(rel):len(rel)], n)
		if rs.ignored(child, de.IsDir()) && !keepIgnored(n, old[n]) { // rulefiles.go
			continue
		}
		if de.IsDir() && w.spawn() {
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer w.done()
				slots[i].e, slots[i].ok, slots[i].err = w.child(child, de, old[n], rs)
			}()
			continue
		}
		slots[i].e, slots[i].ok, slots[i].err = w.child(child, de, old[n], rs)
	}
	wg.Wait()
	out := make([]entry, 0, len(des))
	for i, sl := range slots {
		if err := sl.err; err != nil {
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrTooManyFiles) {
				return "", err
			}
			n := des[i].Name()
			w.note("could not read %s: %v", relPath(append(rel[:len(rel):len(rel)], n)), unwrapPath(err))
			if p := old[n]; p != nil {
				out = append(out, *p)
			}
			continue
		}
		if sl.ok {
			out = append(out, sl.e)
		}
	}
	b := encodeTree(out)
	if h := hashOf(b); h == prevHash {
		return h, nil // unchanged: stored already
	}
	h, n, err := w.l.objs.put(b)
	if err != nil {
		return "", err
	}
	w.stored.Add(n)
	w.l.trees.put(h, out)
	return h, nil
}

// child records one directory entry; ok is false for what the ledger does not keep (sockets,
// devices, fifos).
func (w *walker) child(rel []string, de fs.DirEntry, prev *entry, rs *rules) (entry, bool, error) {
	p := relPath(rel)
	info, err := de.Info()
	if err != nil {
		return entry{}, false, err
	}
	e := entry{name: de.Name(), size: info.Size(), mtime: info.ModTime().UnixNano()}
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		e.ino = st.Ino
	}
	mode := info.Mode()
	switch {
	case mode.IsDir():
		e.kind, e.size, e.mtime, e.ino = kindDir, 0, 0, 0
		var sub []entry
		if prev != nil && prev.isDir() {
			sub, _ = w.l.tree(prev.hash)
		}
		var ph Hash
		if prev != nil && prev.isDir() {
			ph = prev.hash
		}
		h, err := w.dir(rel, ph, sub, rs)
		e.hash = h
		return e, true, err
	case mode&fs.ModeSymlink != 0:
		e.kind = kindLink
		target, err := w.root.Readlink(p)
		if err != nil {
			return entry{}, false, err
		}
		h, n, err := w.l.objs.put([]byte(target))
		w.stored.Add(n)
		e.hash = h
		return e, true, err
	case !mode.IsRegular():
		return entry{}, false, nil
	}
	e.kind = kindFile
	if mode&0o111 != 0 {
		e.kind = kindExec
	}
	if w.files.Add(1) > int64(w.l.opt.MaxFiles) {
		return entry{}, false, fmt.Errorf("%w (over %d)", ErrTooManyFiles, w.l.opt.MaxFiles)
	}
	if prev != nil && prev.kind == e.kind && prev.size == e.size && prev.mtime == e.mtime &&
		prev.mtime != 0 && prev.ino == e.ino {
		e.hash, e.big = prev.hash, prev.big
		return e, true, nil
	}
	if e.size > w.l.opt.MaxFile {
		e.big = true
		w.note("%s (%s) is over the %s limit: its changes are listed but not kept", p, humanSize(e.size), humanSize(w.l.opt.MaxFile))
		return e, true, nil
	}
	if stored := w.stored.Load(); stored+e.size > w.l.opt.MaxStored {
		e.big = true
		w.note("%s was not kept: this snapshot already stored %s", p, humanSize(stored))
		return e, true, nil
	}
	data, err := readRootFile(w.root, p, w.l.opt.MaxFile)
	if err != nil {
		return entry{}, false, err
	}
	w.read.Add(1)
	if e.mtime > w.racy {
		e.mtime = 0 // too fresh to trust: the next snapshot reads it again
	}
	h, n, err := w.l.objs.put(data)
	w.stored.Add(n)
	e.hash, e.size = h, int64(len(data))
	return e, true, err
}

// readRootFile reads a file beneath r, at most max bytes (it may have grown since its stat).
func readRootFile(r *os.Root, name string, max int64) ([]byte, error) {
	f, err := r.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, io.LimitReader(f, max+1)); err != nil {
		return nil, err
	}
	if int64(buf.Len()) > max {
		return nil, fmt.Errorf("it grew past the %s limit while it was read", humanSize(max))
	}
	return buf.Bytes(), nil
}

func readRootCapped(r *os.Root, name string) ([]byte, error) {
	f, err := r.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, ignoreFileCap))
}

// relPath joins path components; "." for the folder itself.
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
