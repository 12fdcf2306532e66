package registry

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"syscall"
)

// The rule for links: a symlink is kept only if, followed through the tree as it is on disk,
// it stays inside the install folder. Its text is not enough: "l/up -> .." reads as the folder
// itself, but when l is a link to "." the new link lands in the folder and ".." is its parent.
// So each link is resolved by the os.Root, which looks every component up on disk, follows
// each link it meets from where that link really is, and fails on a path that leaves the
// root or loops. A link is resolved when it is made, every entry's folder before the entry is
// written (once the archive has made a link), and every link again once all are written:
// an entry made later can change where an earlier link leads ("a -> c/.." is harmless until
// "c -> ." arrives). A dangling link is kept: it leads nowhere.

// symlink makes the entry raw, named name, a link to target, refusing one that leads out.
func (x *extractor) symlink(name, raw, target string) error {
	t := strings.ReplaceAll(target, `\`, "/")
	if path.IsAbs(t) || !filepath.IsLocal(filepath.FromSlash(path.Join(path.Dir(filepath.ToSlash(name)), t))) {
		return refusedLink(raw, target) // out by its text already: no need to look
	}
	if err := x.mkdirParent(name, raw); err != nil {
		return err
	}
	if err := x.root.Symlink(filepath.FromSlash(t), name); err != nil {
		return err
	}
	x.links = true
	if x.leavesRoot(name) {
		return refusedLink(raw, target)
	}
	return nil
}

// mkdir makes the folder entry raw, named name.
func (x *extractor) mkdir(name, raw string) error {
	if err := x.inside(filepath.Dir(name), raw); err != nil {
		return err
	}
	return x.root.MkdirAll(name, 0o755)
}

// mkdirParent makes the folder the entry raw, named name, goes in.
func (x *extractor) mkdirParent(name, raw string) error {
	dir := filepath.Dir(name)
	if dir == "." {
		return nil
	}
	if err := x.inside(dir, raw); err != nil {
		return err
	}
	return x.root.MkdirAll(dir, 0o755)
}

// inside refuses the entry raw when its folder dir leads outside the root through a link.
// The root would refuse the write too; this says why in words.
func (x *extractor) inside(dir, raw string) error {
	if x.links && dir != "." && x.leavesRoot(dir) {
		return fmt.Errorf("refused the entry %q: it would be written through a link that leads outside the install folder", raw)
	}
	return nil
}

// leavesRoot reports whether name, resolved through the tree on disk, leaves the root (or
// loops): resolving it fails for a reason other than a name not there (yet).
func (x *extractor) leavesRoot(name string) bool {
	_, err := x.root.Stat(name)
	return err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR)
}

// checkLinks resolves every link in the tree again, now that every entry is written.
func (x *extractor) checkLinks() error {
	if !x.links {
		return nil
	}
	return fs.WalkDir(x.root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 && x.leavesRoot(filepath.FromSlash(p)) {
			target, _ := x.root.Readlink(filepath.FromSlash(p))
			return refusedLink(p, target)
		}
		return nil
	})
}

func refusedLink(name, target string) error {
	return fmt.Errorf("refused the symlink %s -> %s: followed through the folder, it leads outside the install folder (or round in a loop)",
		filepath.ToSlash(name), target)
}
