package changes

import (
	"fmt"
	"strings"

	"agentdesk/backend/acp/schema"
	"github.com/aymanbagabas/go-udiff"
)

// Changes lists what changed in folder root from tree a to tree b (either "" for nothing):
// the rows of a turn's receipt, renames joined, sorted by path.
func (l *Ledger) Changes(root string, a, b Hash) ([]schema.ChangedFile, error) {
	ds, err := l.diffTrees(a, b)
	if err != nil {
		return nil, fmt.Errorf("compare snapshots of %s: %w", root, err)
	}
	return l.changedFiles(root, ds), nil
}

// lookup finds path (slash-separated) in tree; nil when it is not there.
func (l *Ledger) lookup(tree Hash, p string) (*entry, error) {
	if tree == "" {
		return nil, nil
	}
	parts := strings.Split(p, "/")
	h := tree
	for i, name := range parts {
		es, err := l.tree(h)
		if err != nil {
			return nil, err
		}
		var found *entry
		for k := range es {
			if es[k].name == name {
				found = &es[k]
				break
			}
		}
		if found == nil {
			return nil, nil
		}
		if i == len(parts)-1 {
			if found.isDir() {
				return nil, nil
			}
			c := *found
			return &c, nil
		}
		if !found.isDir() {
			return nil, nil
		}
		h = found.hash
	}
	return nil, nil
}

// diffContext is how many unchanged lines a hunk shows around its changes.
const diffContext = 3

// FileDiff returns file f (a row of Changes from tree a to tree b) with its text before and
// after and the hunks between them.
func (l *Ledger) FileDiff(f schema.ChangedFile, a, b Hash) (FileDiff, error) {
	from := f.Path
	if f.From != "" {
		from = f.From
	}
	old, err := l.lookup(a, from)
	if err != nil {
		return FileDiff{}, err
	}
	cur, err := l.lookup(b, f.Path)
	if err != nil {
		return FileDiff{}, err
	}
	out := FileDiff{ChangedFile: f, Hunks: []Hunk{}}
	if (old != nil && old.big) || (cur != nil && cur.big) {
		out.TooBig = true
		return out, nil
	}
	before, okA := l.text(old)
	after, okB := l.text(cur)
	if !okA || !okB {
		out.Binary = true
		return out, nil
	}
	if old != nil {
		out.Before = &before
	}
	if cur != nil {
		out.After = &after
	}
	out.Hunks, err = hunks(before, after)
	return out, err
}

// rawHunks are the unified diff's hunks from before to after; their lines keep their "\n".
// FromLine and ToLine are 1-based starts in before and after, also of an empty range.
func rawHunks(before, after string) ([]*udiff.Hunk, error) {
	u, err := udiff.ToUnifiedDiff("a", "b", before, udiff.Lines(before, after), diffContext)
	if err != nil {
		return nil, fmt.Errorf("diff: %w", err)
	}
	return u.Hunks, nil
}

// hunks are the hunks from before to after as the window shows them.
func hunks(before, after string) ([]Hunk, error) {
	raw, err := rawHunks(before, after)
	if err != nil {
		return nil, err
	}
	out := make([]Hunk, 0, len(raw))
	for i, h := range raw {
		hk := Hunk{Index: i, OldStart: h.FromLine, NewStart: h.ToLine, Lines: make([]string, 0, len(h.Lines))}
		for _, ln := range h.Lines {
			prefix := " "
			switch ln.Kind {
			case udiff.Delete:
				prefix = "-"
				hk.OldLines++
			case udiff.Insert:
				prefix = "+"
				hk.NewLines++
			default:
				hk.OldLines++
				hk.NewLines++
			}
			hk.Lines = append(hk.Lines, prefix+strings.TrimSuffix(ln.Content, "\n"))
		}
		out = append(out, hk)
	}
	return out, nil
}

// revertHunk returns after with hunk i of before→after undone: the hunk's lines of after
// replaced by its lines of before, everything else as after has it.
func revertHunk(before, after string, i int) (string, error) {
	hs, err := rawHunks(before, after)
	if err != nil {
		return "", err
	}
	if i < 0 || i >= len(hs) {
		return "", fmt.Errorf("the file has %d hunks, not a hunk %d", len(hs), i+1)
	}
	h := hs[i]
	lines := strings.SplitAfter(after, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var oldLines []string
	n := 0 // the hunk's lines of after
	for _, ln := range h.Lines {
		if ln.Kind != udiff.Insert {
			oldLines = append(oldLines, ln.Content)
		}
		if ln.Kind != udiff.Delete {
			n++
		}
	}
	start := h.ToLine - 1
	if start < 0 || start+n > len(lines) {
		return "", fmt.Errorf("hunk %d does not fit the file", i+1)
	}
	var b strings.Builder
	for _, ln := range lines[:start] {
		b.WriteString(ln)
	}
	for _, ln := range oldLines {
		b.WriteString(ln)
	}
	for _, ln := range lines[start+n:] {
		b.WriteString(ln)
	}
	return b.String(), nil
}

// HunkReverted returns file f (a row of Changes from tree a to tree b) as tree b has it with
// hunk i of its diff undone: what a hunk's revert writes.
func (l *Ledger) HunkReverted(f schema.ChangedFile, a, b Hash, i int) (string, error) {
	d, err := l.FileDiff(f, a, b)
	if err != nil {
		return "", err
	}
	if d.Binary || d.TooBig || d.After == nil {
		return "", fmt.Errorf("%s has no hunks to revert one of", f.Path)
	}
	before := ""
	if d.Before != nil {
		before = *d.Before
	}
	return revertHunk(before, *d.After, i)
}
