package worktree

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// What Apply does to a file (FileApply.Action).
const (
	ApplyWrite  = "write"  // the session's file replaces yours, which was as at the base
	ApplyDelete = "delete" // the session deleted it; yours was as at the base
	ApplyMerge  = "merge"  // both changed it; git merged the two without a conflict
	ApplySame   = "same"   // yours is already as the session left it
)

// maxApplyFile bounds a file Apply reads into memory to merge: larger ones are conflicts.
const maxApplyFile = 64 << 20

// FileApply is what Apply does (or would do) to one file of the person's tree.
type FileApply struct {
	Path   string `json:"path"` // slash-separated, from the repository's top
	Action string `json:"action"`
	// Conflict, when set, says why the file cannot be applied; nothing is then applied.
	Conflict string `json:"conflict,omitempty"`
	// Markers is git's merge of a text both changed, with its conflict markers, when Conflict
	// is such a merge: what the person resolves.
	Markers string `json:"markers,omitempty"`
}

// ApplyResult is what Apply did, or would do.
type ApplyResult struct {
	Files     []FileApply `json:"files"`
	Conflicts int         `json:"conflicts"`
	Applied   bool        `json:"applied"` // the files are in the person's tree
}

// Apply brings what t's session changed (against t.Base, committed or not) into the person's
// working tree at t.Repo, file by file, as a three-way merge: a file the person left as at the
// base takes the session's version; one they changed too is merged by git merge-file; anything
// that does not merge cleanly is a conflict. With write false, or with any conflict, nothing is
// written and the result says what would happen. Otherwise every file is written all at once
// (see the journal in applyjournal.go): a crash leaves either none or, after Recover, all.
// Nothing is committed, staged or checked out: HEAD, the index and the branches stay as they
// are. Every read and write of the person's tree goes through an os.Root of it, so no link leads
// out of the tree; a link the session made that points out of it is a conflict. It blocks while
// git reads the worktree; one Apply per repository runs at a time.
func (m *Manager) Apply(ctx context.Context, t Tree, write bool) (ApplyResult, error) {
	unlock, err := m.lockRepo(t.Repo)
	if err != nil {
		return ApplyResult{}, fmt.Errorf("apply %s: %w", t.Branch, err)
	}
	defer unlock()
	if err := m.recoverRepo(t.Repo); err != nil {
		return ApplyResult{}, fmt.Errorf("apply %s: finish an earlier apply: %w", t.Branch, err)
	}
	snap, err := m.snapshot(ctx, t)
	if err != nil {
		return ApplyResult{}, fmt.Errorf("apply %s: %w", t.Branch, err)
	}
	root, err := os.OpenRoot(t.Repo)
	if err != nil {
		return ApplyResult{}, fmt.Errorf("apply %s: %w", t.Branch, err)
	}
	defer root.Close()
	plans, err := m.plan(ctx, t, snap, root)
	if err != nil {
		return ApplyResult{}, fmt.Errorf("apply %s: %w", t.Branch, err)
	}
	var res ApplyResult
	for _, p := range plans {
		res.Files = append(res.Files, p.FileApply)
		if p.Conflict != "" {
			res.Conflicts++
		}
	}
	if !write || res.Conflicts > 0 {
		return res, nil
	}
	changed, err := m.commitPlans(root, t.Repo, plans)
	if err != nil {
		return ApplyResult{}, fmt.Errorf("apply %s: %w", t.Branch, err)
	}
	if changed != "" { // a file of the person's changed while it was being applied
		for i := range res.Files {
			if res.Files[i].Path == changed {
				res.Files[i].Conflict = "it changed in your tree while agentdesk applied; apply again"
				res.Conflicts++
			}
		}
		return res, nil
	}
	res.Applied = true
	return res, nil
}

// kind is what a path is: in a git tree (by its mode) or in the person's tree.
type kind int

const (
	absent kind = iota
	regular
	executable
	symlink
	submodule
)

// version is one side of a three-way merge: what a path holds at the base, in the session's
// worktree or in the person's tree (a link's data is its target).
type version struct {
	kind kind
	data []byte
}

func (v version) equal(o version) bool { return v.kind == o.kind && bytes.Equal(v.data, o.data) }

func (v version) text() bool {
	if v.kind == absent {
		return true
	}
	head := v.data[:min(len(v.data), 8000)]
	return (v.kind == regular || v.kind == executable) && bytes.IndexByte(head, 0) < 0
}

// filePlan is one file's part of an Apply: what to do and, for a write, what to write.
type filePlan struct {
	FileApply
	ours version // the person's file when planned: it must still be so when written
	want version // what the file becomes (absent for a delete)
}

// plan reads the three versions of every file the session changed and decides each.
func (m *Manager) plan(ctx context.Context, t Tree, snap string, root *os.Root) ([]filePlan, error) {
	out, err := m.git.Run(ctx, t.Repo, nil, "diff-tree", "-r", "-z", "--no-renames", "--raw", t.Base, snap)
	if err != nil {
		return nil, err
	}
	sizes, err := m.blobSizes(ctx, t.Repo, t.Base, snap)
	if err != nil {
		return nil, err
	}
	var plans []filePlan
	fields := bytes.Split(bytes.TrimSuffix(out, []byte{0}), []byte{0})
	for i := 0; i+1 < len(fields); i += 2 {
		head := strings.Fields(strings.TrimPrefix(string(fields[i]), ":"))
		if len(head) < 5 {
			return nil, fmt.Errorf("git diff-tree wrote %q", fields[i])
		}
		p := filePlan{FileApply: FileApply{Path: string(fields[i+1])}}
		base, err := m.blob(ctx, t.Repo, head[0], head[2], sizes)
		if err == nil {
			p.want, err = m.blob(ctx, t.Repo, head[1], head[3], sizes)
		}
		if err != nil {
			p.Conflict = err.Error()
		} else {
			p.decide(ctx, m, root, base)
		}
		plans = append(plans, p)
	}
	return plans, nil
}

// decide sets p's action from the base, the session's version (p.want) and the person's.
func (p *filePlan) decide(ctx context.Context, m *Manager, root *os.Root, base version) {
	name, bad := localName(p.Path)
	if bad != "" {
		p.Conflict = bad
		return
	}
	if base.kind == submodule || p.want.kind == submodule {
		p.Conflict = "a submodule: agentdesk does not apply submodule changes; commit them in the session's worktree"
		return
	}
	if p.want.kind == symlink {
		if target := string(p.want.data); filepath.IsAbs(target) || !filepath.IsLocal(path.Join(path.Dir(p.Path), target)) {
			p.Conflict = fmt.Sprintf("a link to %q, which is outside your tree: agentdesk does not apply it", target)
			return
		}
	}
	ours, conflict := readOurs(root, name)
	if conflict != "" {
		p.Conflict = conflict
		return
	}
	p.ours = ours
	switch {
	case ours.equal(p.want):
		p.Action = ApplySame
	case ours.equal(base):
		p.Action = ApplyWrite
		if p.want.kind == absent {
			p.Action = ApplyDelete
		}
	case ours.kind == absent || p.want.kind == absent:
		p.Conflict = "you changed it and the session deleted it, or the other way round"
	case !ours.text() || !p.want.text() || !base.text():
		p.Conflict = "you and the session both changed it, and it is not text that git can merge"
	default:
		p.Action = ApplyMerge
		p.Conflict, p.Markers = p.merge(m, ctx, base)
	}
	if p.Action == ApplyWrite || p.Action == ApplyMerge {
		if bad := parentsAreFolders(root, name); bad != "" {
			p.Conflict = bad
		}
	}
}

// localName turns a path from git into one for the os.Root, refusing what could lead out.
func localName(p string) (string, string) {
	name := filepath.FromSlash(p)
	if !filepath.IsLocal(name) {
		return "", "its path leads out of your tree"
	}
	for _, part := range strings.Split(p, "/") {
		if strings.EqualFold(part, ".git") {
			return "", "its path is inside a .git folder"
		}
	}
	return name, ""
}

// readOurs reads the person's version of name; a conflict says why it cannot be used.
func readOurs(root *os.Root, name string) (version, string) {
	fi, err := root.Lstat(name)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return version{}, ""
	case err != nil:
		return version{}, fmt.Sprintf("it cannot be read in your tree: %v", err)
	case fi.Mode()&os.ModeSymlink != 0:
		target, err := root.Readlink(name)
		if err != nil {
			return version{}, fmt.Sprintf("it cannot be read in your tree: %v", err)
		}
		return version{kind: symlink, data: []byte(target)}, ""
	case fi.IsDir():
		return version{}, "it is a folder in your tree"
	case !fi.Mode().IsRegular():
		return version{}, "it is not a regular file in your tree (a FIFO, socket or device)"
	case fi.Size() > maxApplyFile:
		return version{}, fmt.Sprintf("it is over %d MiB in your tree", maxApplyFile>>20)
	}
	// Opened without following a link and without blocking on a FIFO swapped in since the
	// Lstat; it must be the very file the Lstat saw.
	f, err := root.OpenFile(name, os.O_RDONLY|noFollow, 0)
	if err != nil {
		return version{}, fmt.Sprintf("it cannot be read in your tree: %v", err)
	}
	defer f.Close()
	now, err := f.Stat()
	if err != nil || !os.SameFile(fi, now) {
		return version{}, "it changed in your tree while agentdesk read it; apply again"
	}
	data := make([]byte, 0, fi.Size())
	buf := bytes.NewBuffer(data)
	if _, err := buf.ReadFrom(io.LimitReader(f, maxApplyFile+1)); err != nil {
		return version{}, fmt.Sprintf("it cannot be read in your tree: %v", err)
	}
	if buf.Len() > maxApplyFile {
		return version{}, fmt.Sprintf("it is over %d MiB in your tree", maxApplyFile>>20)
	}
	k := regular
	if fi.Mode()&0o111 != 0 {
		k = executable
	}
	return version{kind: k, data: buf.Bytes()}, ""
}

// parentsAreFolders checks that every folder above name is a folder (or absent) in the
// person's tree, so that writing name makes no file into a folder.
func parentsAreFolders(root *os.Root, name string) string {
	for dir := filepath.Dir(name); dir != "."; dir = filepath.Dir(dir) {
		fi, err := root.Lstat(dir)
		if err == nil && !fi.IsDir() {
			return fmt.Sprintf("%s is not a folder in your tree", filepath.ToSlash(dir))
		}
	}
	return ""
}

// blob reads the object id of git mode mode as a version ("0000..." is absent).
func (m *Manager) blob(ctx context.Context, repo, mode, id string, sizes map[string]int64) (version, error) {
	var k kind
	switch mode {
	case "000000":
		return version{}, nil
	case "100644":
		k = regular
	case "100755":
		k = executable
	case "120000":
		k = symlink
	case "160000":
		return version{kind: submodule, data: []byte(id)}, nil
	default:
		return version{}, fmt.Errorf("git mode %s is not one agentdesk applies", mode)
	}
	if sizes[id] > maxApplyFile {
		return version{}, fmt.Errorf("it is over %d MiB", maxApplyFile>>20)
	}
	data, err := m.git.Run(ctx, repo, nil, "cat-file", "blob", id)
	if err != nil {
		return version{}, err
	}
	return version{kind: k, data: data}, nil
}

// blobSizes maps the ids of the blobs in trees to their sizes, so that no huge file is read.
func (m *Manager) blobSizes(ctx context.Context, repo string, trees ...string) (map[string]int64, error) {
	sizes := map[string]int64{}
	for _, tree := range trees {
		out, err := m.git.Run(ctx, repo, nil, "ls-tree", "-r", "-z", "-l", tree)
		if err != nil {
			return nil, err
		}
		for _, e := range bytes.Split(out, []byte{0}) {
			// "mode type id size\tpath"
			head, _, _ := strings.Cut(string(e), "\t")
			f := strings.Fields(head)
			if len(f) == 4 && f[1] == "blob" {
				sizes[f[2]], _ = strconv.ParseInt(f[3], 10, 64)
			}
		}
	}
	return sizes, nil
}

// merge merges the person's text and the session's against base with git merge-file. Clean, it
// sets p.want to the result; otherwise it returns the conflict and git's merge with markers.
func (p *filePlan) merge(m *Manager, ctx context.Context, base version) (string, string) {
	dir, err := os.MkdirTemp(m.root, ".merge-")
	if err != nil {
		return fmt.Sprintf("merge: %v", err), ""
	}
	defer os.RemoveAll(dir)
	for name, v := range map[string]version{"ours": p.ours, "base": base, "theirs": p.want} {
		if err := os.WriteFile(filepath.Join(dir, name), v.data, 0o600); err != nil {
			return fmt.Sprintf("merge: %v", err), ""
		}
	}
	out, err := m.git.Run(ctx, dir, nil, "merge-file", "-p", "-L", "your tree", "-L", "base", "-L", "session",
		"ours", "base", "theirs")
	var ge *GitError
	switch {
	case err == nil:
		k := p.want.kind
		if p.ours.kind != base.kind { // the person's change of the executable bit stays
			k = p.ours.kind
		}
		p.want = version{kind: k, data: out}
		return "", ""
	case errors.As(err, &ge) && ge.Code > 0 && ge.Code < 128:
		return "you and the session both changed it, and the changes overlap", string(out)
	}
	return fmt.Sprintf("merge: %v", err), ""
}
