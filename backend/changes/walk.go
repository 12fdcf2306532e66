//go:build unix

package changes

// The snapshot's walk: one goroutine per directory (up to walkers at once), each name opened
// relative to its open folder without blocking or following a link, and checked on the
// descriptor before it is read (open.go).

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"sync"
	"sync/atomic"

	"golang.org/x/sys/unix"

	"agentdesk/backend/acp/fsys"
)

// readInfoExclude reads .git/info/exclude beneath the open folder root, each step opened
// without blocking or following a link; nil when there is none (a .git file, a worktree's
// pointer, has none of its own here). One that cannot be read is a note.
func (w *walker) readInfoExclude(root int) []byte {
	git, _, err := openAt(root, ".git", unix.S_IFDIR)
	if err != nil {
		return nil
	}
	defer git.Close()
	gfd, err := rawFd(git)
	if err != nil {
		return nil
	}
	info, _, err := openAt(gfd, "info", unix.S_IFDIR)
	if err != nil {
		return nil
	}
	defer info.Close()
	ifd, err := rawFd(info)
	if err != nil {
		return nil
	}
	return w.readIgnoreFile(ifd, ".git/info/exclude", "exclude")
}

// readIgnoreFile reads the ignore file name in the open folder dir (p: its path, for the note);
// nil when there is none, and a note when it is there but cannot be read (a FIFO, say).
func (w *walker) readIgnoreFile(dir int, p, name string) []byte {
	data, _, err := readAt(dir, name, ignoreFileCap)
	switch {
	case err == nil:
		return data
	case errors.Is(err, unix.ENOENT), errors.Is(err, unix.ELOOP), errors.Is(err, unix.ENOTDIR):
		// None, or a link: git does not follow a linked ignore file in the tree either.
	case errors.As(err, new(notRegularError)):
		w.note("%s is %s: its ignore rules were not read", p, err)
	default:
		w.note("could not read the ignore rules in %s: %v", p, err)
	}
	return nil
}

// walker is one snapshot's walk. Subdirectories are walked in parallel (up to walkers at a
// time: the walk waits on system calls more than on the CPU), so its counters are atomic.
type walker struct {
	l     *Ledger
	ctx   context.Context
	own   map[string]bool // agentdesk's own paths beneath the root (Options.Own), relative to it
	racy  int64           // files with a later mtime are marked racy
	slots chan struct{}

	files, read, stored atomic.Int64
	cut                 atomic.Bool // the context ended: the walk was cut short

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

// stopped says whether the walk must stop (its context ended), and notes that it did.
func (w *walker) stopped() bool {
	if w.ctx.Err() == nil {
		return false
	}
	w.cut.Store(true)
	return true
}

// dir records the open directory fd at rel (path components beneath the folder) given its
// entries in the last snapshot, and returns its tree.
func (w *walker) dir(fd int, rel []string, prevHash Hash, prev []entry, rs *rules) (Hash, error) {
	if w.stopped() {
		return "", errCut
	}
	name := relPath(rel)
	des, err := readDirFd(fd, name)
	if err != nil {
		return "", err
	}
	if w.l.hook != nil {
		w.l.hook(hookListed, name)
	}
	old := make(map[string]*entry, len(prev))
	for i := range prev {
		old[prev[i].name] = &prev[i]
	}
	for _, de := range des {
		if de.Name() == ".gitignore" {
			if data := w.readIgnoreFile(fd, path.Join(name, ".gitignore"), ".gitignore"); data != nil {
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
		if len(w.own) > 0 && w.own[relPath(child)] { // no path joined per file when there is none
			// agentdesk's own file, in the folder: as the last snapshot had it (or not at all),
			// so that it neither shows as changed nor as deleted by a turn.
			if p := old[n]; p != nil {
				slots[i].e, slots[i].ok = *p, true
			}
			continue
		}
		if rs.ignored(child, de.IsDir()) && !keepIgnored(n, old[n]) { // rulefiles.go
			continue
		}
		if w.stopped() {
			slots[i].err = errCut
			continue
		}
		if de.IsDir() && w.spawn() {
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer w.done()
				slots[i].e, slots[i].ok, slots[i].err = w.child(fd, child, old[n], rs)
			}()
			continue
		}
		slots[i].e, slots[i].ok, slots[i].err = w.child(fd, child, old[n], rs)
	}
	wg.Wait()
	out := make([]entry, 0, len(des))
	for i, sl := range slots {
		n := des[i].Name()
		switch err := sl.err; {
		case err == nil:
			if sl.ok {
				out = append(out, sl.e)
			}
			continue
		case errors.Is(err, ErrTooManyFiles):
			return "", err
		case errors.Is(err, errCut):
		case errors.As(err, new(notRegularError)):
			// Swapped since it was listed: what it is now is not recorded.
			w.note("%s is %s: not recorded", relPath(append(rel[:len(rel):len(rel)], n)), err)
			continue
		default:
			w.note("could not read %s: %v", relPath(append(rel[:len(rel):len(rel)], n)), unwrapPath(err))
		}
		if p := old[n]; p != nil {
			out = append(out, *p)
		}
	}
	out = w.keepOwnGone(rel, des, old, out)
	return w.store(out, prevHash)
}

// store writes the directory record of entries (unless it is prevHash's) and returns its hash.
func (w *walker) store(es []entry, prevHash Hash) (Hash, error) {
	if err := w.spill(es); err != nil {
		return "", err
	}
	b := encodeTree(es)
	if h := hashOf(b); h == prevHash {
		return h, nil // unchanged: stored already
	}
	h, n, err := w.l.objs.put(b)
	if err != nil {
		return "", err
	}
	w.stored.Add(n)
	w.l.trees.put(h, es)
	return h, nil
}

// fileKind is the entry kind of a regular file of st_mode mode.
func fileKind(mode uint32) byte {
	if mode&0o111 != 0 {
		return kindExec
	}
	return kindFile
}

// readDirFd lists the open directory fd (name: its path, for errors) without closing it.
func readDirFd(fd int, name string) ([]fs.DirEntry, error) {
	dup, err := unix.Dup(fd)
	if err != nil {
		return nil, err
	}
	unix.CloseOnExec(dup)
	f := os.NewFile(uintptr(dup), name)
	defer f.Close()
	return f.ReadDir(-1)
}

// child records the entry rel of the open directory dir; ok is false for what the ledger does
// not keep (sockets, devices, FIFOs: a note names them).
func (w *walker) child(dir int, rel []string, prev *entry, rs *rules) (entry, bool, error) {
	p := relPath(rel)
	name := rel[len(rel)-1]
	st, err := statAt(dir, name)
	if err != nil {
		return entry{}, false, err
	}
	e := entry{name: name, size: st.Size, mtime: st.Mtim.Nano(), ino: st.Ino}
	switch uint32(st.Mode) & unix.S_IFMT {
	case unix.S_IFDIR:
		e.kind, e.size, e.mtime, e.ino = kindDir, 0, 0, 0
		var sub []entry
		var ph Hash
		if prev != nil && prev.isDir() {
			sub, _ = w.l.tree(prev.hash)
			ph = prev.hash
		}
		f, _, err := openAt(dir, name, unix.S_IFDIR)
		if err != nil {
			return entry{}, false, err
		}
		defer f.Close()
		fd, err := rawFd(f)
		if err != nil {
			return entry{}, false, err
		}
		h, err := w.dir(fd, rel, ph, sub, rs)
		e.hash = h
		return e, true, err
	case unix.S_IFLNK:
		e.kind = kindLink
		target, err := fsys.ReadLinkAt(dir, name)
		if err != nil {
			return entry{}, false, err
		}
		err = w.keep(&e, []byte(target))
		return e, true, err
	case unix.S_IFREG:
	default:
		w.note("%s is %s, not a regular file: not recorded", p, fsys.FileKind(uint32(st.Mode)))
		return entry{}, false, nil
	}
	e.kind = fileKind(uint32(st.Mode))
	if w.files.Add(1) > int64(w.l.opt.MaxFiles) {
		return entry{}, false, fmt.Errorf("%w (over %d)", ErrTooManyFiles, w.l.opt.MaxFiles)
	}
	if prev != nil && prev.kind == e.kind && prev.size == e.size && prev.mtime == e.mtime &&
		prev.mtime != 0 && prev.ino == e.ino {
		e.hash, e.big, e.inline, e.data = prev.hash, prev.big, prev.inline, prev.data
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
	if w.l.hook != nil {
		w.l.hook(hookOpen, p)
	}
	data, fst, err := readAt(dir, name, w.l.opt.MaxFile)
	if err != nil {
		return entry{}, false, err
	}
	w.read.Add(1)
	// What was read is what the descriptor says, not the name's stat before the open.
	e.kind, e.mtime, e.ino = fileKind(uint32(fst.Mode)), fst.Mtim.Nano(), fst.Ino
	if e.mtime > w.racy {
		e.mtime = 0 // too fresh to trust: the next snapshot reads it again
	}
	e.size = int64(len(data))
	err = w.keep(&e, data)
	return e, true, err
}

// keep records content data for entry e: inline in its directory record when it is small
// (dir may move it to the store, see inlineBudget), else in the store.
func (w *walker) keep(e *entry, data []byte) error {
	if len(data) <= inlineMax {
		e.hash, e.inline, e.data = hashOf(data), true, data
		return nil
	}
	h, n, err := w.l.objs.put(data)
	w.stored.Add(n)
	e.hash = h
	return err
}

// spill moves the inline content of es past inlineBudget (in name order) to the store, so that
// a directory record stays small however many tiny files the directory holds.
func (w *walker) spill(es []entry) error {
	sort.Slice(es, func(i, j int) bool { return es[i].name < es[j].name })
	total := 0
	for i := range es {
		e := &es[i]
		if !e.inline {
			continue
		}
		if total += len(e.data); total <= inlineBudget {
			continue
		}
		h, n, err := w.l.objs.put(e.data)
		if err != nil {
			return err
		}
		w.stored.Add(n)
		e.hash, e.inline, e.data = h, false, nil
	}
	return nil
}

// keepOwnGone adds to out the entries of agentdesk's own files (walker.own) that the last
// snapshot of folder rel had and that are gone now: a turn does not delete them either.
func (w *walker) keepOwnGone(rel []string, des []fs.DirEntry, old map[string]*entry, out []entry) []entry {
	if len(w.own) == 0 {
		return out
	}
	listed := make(map[string]bool, len(des))
	for _, de := range des {
		listed[de.Name()] = true
	}
	for n, p := range old {
		if !listed[n] && w.own[relPath(append(rel[:len(rel):len(rel)], n))] {
			out = append(out, *p)
		}
	}
	return out
}
