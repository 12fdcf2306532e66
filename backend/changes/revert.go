//go:build unix

package changes

import (
	"fmt"
	"path"
	"strings"

	"github.com/aymanbagabas/go-udiff"

	"agentdesk/backend/acp/fsys"
)

// resolved is a target with its entries looked up and the disk as it is now.
type resolved struct {
	t            Target
	want, expect *entry
	now          onDisk
	content      []byte // what to write (want's blob, or Content)
}

// Plan says what reverting targets would do, given each file as it is on disk now (read through
// the folder's descriptors, whatever the ignore rules say). It writes nothing.
func (l *Ledger) Plan(targets []Target) ([]PlannedFile, error) {
	rs, err := l.resolve(targets)
	if err != nil {
		return nil, err
	}
	out := make([]PlannedFile, len(rs))
	for i := range rs {
		if rs[i].now, err = readPath(rs[i].t.Root, rs[i].t.Path, l.opt.MaxFile); err != nil {
			return nil, fmt.Errorf("revert %s: read it as it is now: %w", rs[i].t.Path, err)
		}
		out[i] = l.plan(rs[i])
	}
	return out, nil
}

// resolve looks up what each target should hold and is expected to hold.
func (l *Ledger) resolve(targets []Target) ([]resolved, error) {
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
	now := &r.now
	switch {
	case r.want != nil && r.want.big && r.t.Content == nil:
		p.Action, p.Reason = ActionSkip, "it was over the size limit, so the ledger has no copy to restore"
		return p
	case now.above != "":
		p.Conflict = now.above
	case now.kind == kindOther:
		p.Conflict = "it is " + fsys.FileKind(now.mode) + " now, not a regular file: a revert touches only regular files and links"
	case now.kind == kindDir:
		p.Conflict = "it is a folder now"
	case now.foreignLink(r.expect):
		p.Conflict = fmt.Sprintf("it is a hard link now (%d names share the file, maybe outside the folder), and was not after this turn", now.nlink)
	case r.t.Content == nil && now.matches(r.want):
		p.Action, p.Reason = ActionSkip, "it is already as it was"
		return p
	case !now.matches(r.expect):
		p.Conflict = conflictText(r.expect, now)
	}
	if (now.kind == 0 || now.kind == kindFile || now.kind == kindExec || now.kind == kindLink) && !now.big &&
		!isBinary(now.data) && !isBinary(r.content) {
		p.Diff = udiff.Unified("now/"+r.t.Path, "reverted/"+r.t.Path, string(now.data), string(r.content))
	}
	return p
}

func conflictText(expect *entry, now *onDisk) string {
	switch {
	case now.kind == 0:
		return "it was deleted after this turn"
	case now.kind == kindLink && (expect == nil || expect.kind != kindLink):
		return fmt.Sprintf("it is a symbolic link now (to %q)", now.data)
	case expect == nil:
		return "it was created again after this turn"
	}
	return "it was changed after this turn"
}

// Apply carries out the plan of targets (each non-skip file written or removed, in order)
// beneath their folders. It plans first and writes nothing when any file conflicts; then each
// file is looked at again, through the same folder descriptor its write uses, just before it is
// written (something may change it meanwhile: that stops the revert there). The first failure
// is returned with the files done before it.
func (l *Ledger) Apply(targets []Target) (done []string, err error) {
	plan, err := l.Plan(targets)
	if err != nil {
		return nil, err
	}
	for _, p := range plan {
		if p.Conflict != "" {
			return nil, fmt.Errorf("revert %s: %w", p.Path, errConflict(p.Conflict))
		}
	}
	rs, err := l.resolve(targets)
	if err != nil {
		return nil, err
	}
	for _, r := range rs {
		wrote, err := l.apply(r)
		if err != nil {
			return done, fmt.Errorf("revert %s: %w", r.t.Path, err)
		}
		if wrote {
			done = append(done, r.t.Path)
		}
	}
	return done, nil
}

// errConflict is a conflict Apply found: the file changed after the plan.
type errConflict string

func (e errConflict) Error() string { return string(e) }

// apply reverts one file; wrote is false for a skip.
func (l *Ledger) apply(r resolved) (wrote bool, err error) {
	p, above, err := openParent(r.t.Root, r.t.Path, false)
	if err != nil {
		return false, err
	}
	defer func() { p.close() }()
	if p.fd >= 0 {
		if r.now, err = lookAt(p.fd, p.name, l.opt.MaxFile); err != nil {
			return false, err
		}
	}
	r.now.above = above
	plan := l.plan(r)
	switch {
	case plan.Conflict != "":
		return false, errConflict(plan.Conflict)
	case plan.Action == ActionSkip:
		return false, nil
	case plan.Action == ActionDelete:
		return true, remove(p.fd, p.name, r.now)
	}
	if p.fd < 0 { // its folder is gone: made again, name by name
		if p, above, err = openParent(r.t.Root, r.t.Path, true); err != nil {
			return false, err
		}
		if above != "" {
			return false, errConflict(above)
		}
	}
	mode := uint32(0o644)
	if (r.want != nil && r.want.kind == kindExec) || (r.want == nil && r.now.kind == kindExec) {
		mode = 0o755
	}
	link := r.want != nil && r.want.kind == kindLink && r.t.Content == nil
	return true, install(p.fd, p.name, r.now, r.content, mode, link)
}

// cleanRel says whether p is a clean slash path beneath a folder (no "..", not absolute).
func cleanRel(p string) bool {
	if p == excludePath { // the one file of .git a turn's changes are recorded of
		return true
	}
	return p != "" && p != "." && !strings.HasPrefix(p, "/") && path.Clean(p) == p &&
		p != ".." && !strings.HasPrefix(p, "../") && !strings.Contains(p, "\x00") &&
		!strings.HasPrefix(p, ".git/") && p != ".git" && !strings.Contains(p, "/.git/") && !strings.HasSuffix(p, "/.git")
}
