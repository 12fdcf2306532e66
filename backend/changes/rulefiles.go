//go:build unix

package changes

import "fmt"

// The ignore rules decide what a snapshot starts to record, never what it stops recording: a
// turn that changes them (writes "*" to .gitignore) must not make its own change, or files it
// never touched, vanish from its receipt, and a revert must not take a file hidden by the new
// rules for "absent". So the files that hold the rules are always recorded, and so is every
// name the folder's last snapshot recorded, for as long as it exists.

// excludePath is the repository's own ignore file: the one file inside .git the ledger
// records (as a ".git" folder in the tree holding only it), and a revert may write.
const excludePath = ".git/info/exclude"

// keepIgnored says whether name, which the rules ignore, is recorded anyway: an ignore file
// (.gitignore, .ignore), or a name the last snapshot had (prev).
func keepIgnored(name string, prev *entry) bool {
	return name == ".gitignore" || name == ".ignore" || prev != nil
}

// withExclude returns tree (folder root's snapshot, its top folder) with root's
// .git/info/exclude in it as ".git/info/exclude", when that is a regular file, and the bytes
// newly stored. It is read through the folder's descriptors: no link is followed, nothing that
// could block is opened.
func (l *Ledger) withExclude(root string, tree Hash) (Hash, int64, error) {
	d, err := readPath(root, excludePath, l.opt.MaxFile)
	if err != nil || (d.kind != kindFile && d.kind != kindExec) {
		return tree, 0, nil // no such file (a worktree's .git is a file): nothing to record
	}
	var stored int64
	put := func(b []byte) (Hash, error) {
		h, n, err := l.objs.put(b)
		stored += n
		return h, err
	}
	file := entry{name: "exclude", kind: d.kind, size: d.size, mtime: d.mtime, ino: d.ino, big: d.big}
	if !d.big {
		if file.hash, err = put(d.data); err != nil {
			return "", stored, err
		}
	}
	putTree := func(es []entry) (Hash, error) {
		h, err := put(encodeTree(es))
		if err == nil {
			l.trees.put(h, es)
		}
		return h, err
	}
	top, err := l.tree(tree)
	if err != nil {
		return "", stored, err
	}
	info, err := putTree([]entry{file})
	if err != nil {
		return "", stored, fmt.Errorf("record %s: %w", excludePath, err)
	}
	git, err := putTree([]entry{{name: "info", kind: kindDir, hash: info}})
	if err != nil {
		return "", stored, fmt.Errorf("record %s: %w", excludePath, err)
	}
	// A copy: the cache's slice is shared, and encodeTree sorts in place.
	h, err := putTree(append(append(make([]entry, 0, len(top)+1), top...), entry{name: ".git", kind: kindDir, hash: git}))
	if err != nil {
		return "", stored, fmt.Errorf("record %s: %w", excludePath, err)
	}
	return h, stored, nil
}
