package changes

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/aymanbagabas/go-udiff"
)

// Target is one file a revert puts back: in folder Root, Path gets the version tree From has
// (absent there: the file is removed), or Content when set (a hunk's revert), provided the file
// is now as tree Expect has it; otherwise it is a conflict: something changed it since.
type Target struct {
	Root, Path string
	From       Hash
	Expect     Hash
	Content    *string
}

// resolved is a target with its entries looked up.
type resolved struct {
	t            Target
	want, expect *entry
	now          *entry
	content      []byte // what to write (want's blob, or Content)
}

// Plan says what reverting targets would do, given each folder's tree as it is now (a fresh
// Snapshot). It writes nothing.
func (l *Ledger) Plan(targets []Target, now map[string]Hash) ([]PlannedFile, error) {
	rs, err := l.resolve(targets, now)
	if err != nil {
		return nil, err
	}
	out := make([]PlannedFile, len(rs))
	for i, r := range rs {
		out[i] = l.plan(r)
	}
	return out, nil
}

func (l *Ledger) resolve(targets []Target, now map[string]Hash) ([]resolved, error) {
	out := make([]resolved, 0, len(targets))
	for _, t := range targets {
		if !cleanRel(t.Path) {
			return nil, fmt.Errorf("revert %q: not a path beneath the folder", t.Path)
		}
		r := resolved{t: t}
		var err error
		if r.want, err = l.lookup(t.From, t.Path); err != nil {
			return nil, err
		}
		if r.expect, err = l.lookup(t.Expect, t.Path); err != nil {
			return nil, err
		}
		if r.now, err = l.lookup(now[t.Root], t.Path); err != nil {
			return nil, err
		}
		switch {
		case t.Content != nil:
			r.content = []byte(*t.Content)
		case r.want != nil && !r.want.big:
			if r.content, err = l.blob(r.want); err != nil {
				return nil, fmt.Errorf("revert %s: %w", t.Path, err)
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// plan decides one file.
func (l *Ledger) plan(r resolved) PlannedFile {
	p := PlannedFile{Root: r.t.Root, Path: r.t.Path, Action: ActionRestore}
	if r.t.Content == nil && r.want == nil {
		p.Action = ActionDelete
	}
	switch {
	case r.want != nil && r.want.big && r.t.Content == nil:
		p.Action, p.Reason = ActionSkip, "it was over the size limit, so the ledger has no copy to restore"
		return p
	case r.t.Content == nil && same(r.now, r.want):
		p.Action, p.Reason = ActionSkip, "it is already as it was"
		return p
	case !same(r.now, r.expect):
		p.Conflict = conflictText(r.expect, r.now)
	}
	before, okA := l.text(r.now)
	if r.now != nil && r.now.big {
		okA = false
	}
	after := string(r.content)
	if okA && !isBinary(r.content) {
		p.Diff = udiff.Unified("now/"+r.t.Path, "reverted/"+r.t.Path, before, after)
	}
	return p
}

// same says whether two entries (either may be absent) hold the same.
func same(a, b *entry) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return sameContent(a, b)
}

func conflictText(expect, now *entry) string {
	switch {
	case now == nil:
		return "it was deleted after this turn"
	case expect == nil:
		return "it was created again after this turn"
	}
	return "it was changed after this turn"
}

// Apply carries out the plan of targets (each non-skip file written or removed, in order)
// beneath their folders. The caller has checked that the plan has no conflict, against a
// snapshot taken under the same hold of its own lock; the first failure stops it and is
// returned with the files done before it.
func (l *Ledger) Apply(targets []Target, now map[string]Hash) (done []string, err error) {
	rs, err := l.resolve(targets, now)
	if err != nil {
		return nil, err
	}
	for _, r := range rs {
		p := l.plan(r)
		if p.Conflict != "" {
			return done, fmt.Errorf("revert %s: %s", r.t.Path, p.Conflict)
		}
		if p.Action == ActionSkip {
			continue
		}
		if err := l.write(r, p.Action); err != nil {
			return done, fmt.Errorf("revert %s: %w", r.t.Path, err)
		}
		done = append(done, r.t.Path)
	}
	return done, nil
}

// write puts one file back through os.Root: no symlink or ".." leads out of its folder.
func (l *Ledger) write(r resolved, action string) error {
	root, err := os.OpenRoot(r.t.Root)
	if err != nil {
		return err
	}
	defer root.Close()
	name := r.t.Path
	if action == ActionDelete {
		if err := root.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	if dir := path.Dir(name); dir != "." {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	if r.want != nil && r.want.kind == kindLink && r.t.Content == nil {
		if err := root.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return root.Symlink(string(r.content), name)
	}
	mode := fs.FileMode(0o644)
	if (r.want != nil && r.want.kind == kindExec) || (r.want == nil && r.now != nil && r.now.kind == kindExec) {
		mode = 0o755
	}
	tmp := path.Join(path.Dir(name), ".agentdesk-revert-"+path.Base(name))
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	_, werr := f.Write(r.content)
	if err := errors.Join(werr, f.Sync(), f.Close()); err != nil {
		root.Remove(tmp)
		return err
	}
	if err := root.Chmod(tmp, mode); err != nil {
		root.Remove(tmp)
		return err
	}
	if err := root.Rename(tmp, name); err != nil {
		root.Remove(tmp)
		return err
	}
	return nil
}

// cleanRel says whether p is a clean slash path beneath a folder (no "..", not absolute).
func cleanRel(p string) bool {
	return p != "" && p != "." && !strings.HasPrefix(p, "/") && path.Clean(p) == p &&
		p != ".." && !strings.HasPrefix(p, "../") && !strings.Contains(p, "\x00") &&
		!strings.HasPrefix(p, ".git/") && p != ".git" && !strings.Contains(p, "/.git/") && !strings.HasSuffix(p, "/.git")
}
