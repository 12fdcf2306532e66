package changes

import (
	"bytes"
	"sort"
	"strings"
	"unicode/utf8"

	"agentdesk/backend/acp/schema"
	"github.com/aymanbagabas/go-udiff"
)

// delta is one path that differs between two trees: old or new is nil where it is absent.
type delta struct {
	path     string
	old, new *entry
}

// diffTrees lists the files (and links) that differ between trees a and b, sorted by path.
func (l *Ledger) diffTrees(a, b Hash) ([]delta, error) {
	var out []delta
	if err := l.diffDir("", a, b, &out); err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out, nil
}

func (l *Ledger) diffDir(prefix string, a, b Hash, out *[]delta) error {
	if a == b {
		return nil
	}
	ea, err := l.tree(a)
	if err != nil {
		return err
	}
	eb, err := l.tree(b)
	if err != nil {
		return err
	}
	byName := make(map[string]*entry, len(ea))
	for i := range ea {
		byName[ea[i].name] = &ea[i]
	}
	seen := make(map[string]bool, len(eb))
	for i := range eb {
		nb := &eb[i]
		seen[nb.name] = true
		if err := l.diffEntry(prefix+nb.name, byName[nb.name], nb, out); err != nil {
			return err
		}
	}
	for i := range ea {
		if !seen[ea[i].name] {
			if err := l.diffEntry(prefix+ea[i].name, &ea[i], nil, out); err != nil {
				return err
			}
		}
	}
	return nil
}

// diffEntry compares one name of two directories (either side may be nil).
func (l *Ledger) diffEntry(p string, a, b *entry, out *[]delta) error {
	aDir, bDir := a != nil && a.isDir(), b != nil && b.isDir()
	var sa, sb Hash
	if aDir {
		sa = a.hash
	}
	if bDir {
		sb = b.hash
	}
	if aDir || bDir {
		if err := l.diffDir(p+"/", sa, sb, out); err != nil {
			return err
		}
	}
	fa, fb := a, b
	if aDir {
		fa = nil
	}
	if bDir {
		fb = nil
	}
	switch {
	case fa == nil && fb == nil:
	case fa == nil || fb == nil || !sameContent(fa, fb):
		*out = append(*out, delta{path: p, old: fa, new: fb})
	}
	return nil
}

// countCap: files larger than this are not diffed line by line (the counts stay 0).
const countCap = 4 << 20

// changedFiles turns the deltas of folder root into the receipt's rows: exact renames (a
// deleted file's content reappearing under a new path) joined, line counts for text.
func (l *Ledger) changedFiles(root string, ds []delta) []schema.ChangedFile {
	added := map[Hash]int{} // content → index of an added delta with it
	for i, d := range ds {
		if d.old == nil && d.new != nil && !d.new.big && d.new.size > 0 {
			added[d.new.hash] = i
		}
	}
	renamedTo := map[int]string{} // index of an added delta → the old path
	skip := map[int]bool{}
	for i, d := range ds {
		if d.old != nil && d.new == nil && !d.old.big {
			if j, ok := added[d.old.hash]; ok && !skip[j] {
				renamedTo[j], skip[i], skip[j] = d.path, true, true
				delete(added, d.old.hash)
			}
		}
	}
	out := make([]schema.ChangedFile, 0, len(ds))
	for i, d := range ds {
		f := schema.ChangedFile{Root: root, Path: d.path}
		switch from, ok := renamedTo[i]; {
		case ok:
			f.Change, f.From = schema.ChangeRenamed, from
		case skip[i]:
			continue // the old half of a rename
		case d.old == nil:
			f.Change = schema.ChangeAdded
		case d.new == nil:
			f.Change = schema.ChangeDeleted
		default:
			f.Change = schema.ChangeModified
		}
		if f.Change != schema.ChangeRenamed {
			l.count(&f, d.old, d.new)
		}
		out = append(out, f)
	}
	return out
}

// count fills in a changed file's line counts, or marks it binary or too big.
func (l *Ledger) count(f *schema.ChangedFile, old, new *entry) {
	if (old != nil && old.big) || (new != nil && new.big) {
		f.TooBig = true
		return
	}
	before, okA := l.text(old)
	after, okB := l.text(new)
	if !okA || !okB {
		f.Binary = true
		return
	}
	if len(before) > countCap || len(after) > countCap {
		return
	}
	for _, e := range udiff.Lines(before, after) {
		f.Removed += strings.Count(before[e.Start:e.End], "\n")
		if e.End > e.Start && !strings.HasSuffix(before[e.Start:e.End], "\n") {
			f.Removed++
		}
		f.Added += strings.Count(e.New, "\n")
		if e.New != "" && !strings.HasSuffix(e.New, "\n") {
			f.Added++
		}
	}
}

// text reads a file entry's content as text; ok is false for binary content, links count as
// text (their target), and a nil entry is "".
func (l *Ledger) text(e *entry) (string, bool) {
	if e == nil {
		return "", true
	}
	b, err := l.blob(e)
	if err != nil {
		return "", false
	}
	if isBinary(b) {
		return "", false
	}
	return string(b), true
}

// isBinary is git's rule: a NUL in the first 8000 bytes (and, ours, invalid UTF-8 there).
func isBinary(b []byte) bool {
	head := b[:min(len(b), 8000)]
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	for len(head) > 0 {
		r, n := utf8.DecodeRune(head)
		if r == utf8.RuneError && n == 1 && len(head) >= utf8.UTFMax {
			return true
		}
		head = head[n:]
	}
	return false
}
