package worktree

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Uncommitted counts the files of project's repository that differ from its HEAD (staged,
// unstaged and untracked, as git status lists them): what Carry would bring along. It fails as
// Create would for a folder that cannot have a worktree (ErrNotRepository, ErrNoCommits,
// wrapped), so it also says whether one can be made. It blocks while git reads the folder.
func (m *Manager) Uncommitted(ctx context.Context, project string) (int, error) {
	_, top, _, err := m.repository(ctx, project)
	if err != nil {
		return 0, err
	}
	out, err := m.git.Run(ctx, top, nil, "status", "--porcelain=v1", "-z", "--untracked-files=all")
	if err != nil {
		return 0, fmt.Errorf("read the changes of %s: %w", top, err)
	}
	return porcelainEntries(out), nil
}

// Carry brings the person's uncommitted work in t.Repo into the new worktree t, and returns
// how many untracked files it copied: their staged and unstaged changes to tracked files (a
// commit `git stash create` makes, applied with its index; neither their stash nor their refs
// gain anything) and their untracked files that git does not ignore (regular files and links,
// copied through an os.Root of each tree: nothing outside either is read or written; FIFOs and
// other special files are left out). Their own tree, index and stash are only read.
func (m *Manager) Carry(ctx context.Context, t Tree) (int, error) {
	out, err := m.git.Run(ctx, t.Repo, nil, "stash", "create")
	if err != nil {
		return 0, fmt.Errorf("carry your changes: %w", err)
	}
	if sha := strings.TrimSpace(string(out)); sha != "" {
		if _, err := m.git.Run(ctx, t.Path, nil, "stash", "apply", "--index", "--quiet", sha); err != nil {
			return 0, fmt.Errorf("carry your changes: %w", err)
		}
	}
	out, err = m.git.Run(ctx, t.Repo, nil, "ls-files", "--others", "--exclude-standard", "-z")
	if err != nil {
		return 0, fmt.Errorf("carry your untracked files: %w", err)
	}
	from, err := os.OpenRoot(t.Repo)
	if err != nil {
		return 0, fmt.Errorf("carry your untracked files: %w", err)
	}
	defer from.Close()
	to, err := os.OpenRoot(t.Path)
	if err != nil {
		return 0, fmt.Errorf("carry your untracked files: %w", err)
	}
	defer to.Close()
	n := 0
	for _, p := range bytes.Split(bytes.TrimSuffix(out, []byte{0}), []byte{0}) {
		if len(p) == 0 {
			continue
		}
		name, bad := localName(string(p))
		if bad != "" {
			continue
		}
		copied, err := copyOne(from, to, name)
		if err != nil {
			return n, fmt.Errorf("carry %s: %w", p, err)
		}
		if copied {
			n++
		}
	}
	return n, nil
}

// copyOne copies name, a regular file or a link, from one root to the other; anything else is
// skipped (false).
func copyOne(from, to *os.Root, name string) (bool, error) {
	fi, err := from.Lstat(name)
	if err != nil {
		return false, err
	}
	if dir := filepath.Dir(name); dir != "." {
		if err := to.MkdirAll(dir, 0o755); err != nil {
			return false, err
		}
	}
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		target, err := from.Readlink(name)
		if err != nil {
			return false, err
		}
		return true, to.Symlink(target, name)
	case !fi.Mode().IsRegular():
		return false, nil
	}
	src, err := from.OpenFile(name, os.O_RDONLY|noFollow, 0)
	if err != nil {
		return false, err
	}
	defer src.Close()
	if now, err := src.Stat(); err != nil || !os.SameFile(fi, now) {
		return false, errors.New("it changed while agentdesk copied it")
	}
	dst, err := to.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL|noFollow, fi.Mode().Perm())
	if err != nil {
		return false, err
	}
	_, err = io.Copy(dst, src)
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	return true, err
}
