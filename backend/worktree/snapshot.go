package worktree

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrNothingToCommit is Commit on a worktree with no change since its last commit.
var ErrNothingToCommit = errors.New("the session's worktree has nothing to commit")

// snapshot writes the worktree's whole state as a git tree object and returns its id: its
// commits, staged, unstaged and untracked files (those git does not ignore), as the session
// left them. It works on a private copy of the worktree's index, so that neither the agent's
// staging nor the person's repository changes (git only stores the files' objects). Special
// files (FIFOs, sockets) are not files to git and are left out.
func (m *Manager) snapshot(ctx context.Context, t Tree) (string, error) {
	out, err := m.git.Run(ctx, t.Path, nil, "rev-parse", "--git-path", "index")
	if err != nil {
		return "", fmt.Errorf("snapshot of worktree %s: %w", t.Path, err)
	}
	index := strings.TrimSpace(string(out))
	if !filepath.IsAbs(index) {
		index = filepath.Join(t.Path, index)
	}
	if err := os.MkdirAll(m.root, 0o700); err != nil {
		return "", fmt.Errorf("snapshot of worktree %s: %w", t.Path, err)
	}
	private, err := os.CreateTemp(m.root, ".index-")
	if err != nil {
		return "", fmt.Errorf("snapshot of worktree %s: %w", t.Path, err)
	}
	defer os.Remove(private.Name())
	// The worktree's index keeps git's knowledge of which files are unchanged, so only changed
	// files are read again; without one (never staged), git starts from an empty index.
	err = copyIndex(private, index)
	private.Close()
	if err != nil {
		os.Remove(private.Name()) // git makes the private index itself
	}
	env := []string{"GIT_INDEX_FILE=" + private.Name()}
	if _, err := m.git.Run(ctx, t.Path, env, "add", "--all", "--", "."); err != nil {
		return "", fmt.Errorf("snapshot of worktree %s: %w", t.Path, err)
	}
	out, err = m.git.Run(ctx, t.Path, env, "write-tree")
	if err != nil {
		return "", fmt.Errorf("snapshot of worktree %s: %w", t.Path, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// copyIndex copies the index file at from into to; an error means there is none to copy.
func copyIndex(to *os.File, from string) error {
	f, err := os.Open(from)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(to, f)
	return err
}

// Change is one file a session changed in its worktree, against the worktree's base.
type Change struct {
	Path    string `json:"path"`    // slash-separated, from the repository's top
	Status  string `json:"status"`  // "added", "modified", "deleted" or "type" (file, link or submodule in place of another)
	Added   int    `json:"added"`   // lines added (0 for a binary file)
	Removed int    `json:"removed"` // lines removed (0 for a binary file)
	Binary  bool   `json:"binary"`
}

// Review is everything a session changed in its worktree against its base, commits and
// uncommitted files alike.
type Review struct {
	Files   []Change `json:"files"`
	Added   int      `json:"added"`
	Removed int      `json:"removed"`
	// Diff is git's unified diff from the base to the worktree's state ("Binary files ...
	// differ" for binary files).
	Diff string `json:"diff"`
}

// Changes reads what t's session changed, file by file with + / −, without the diff itself
// (Review adds it): what a comparison's rows show. It blocks while git reads the worktree.
func (m *Manager) Changes(ctx context.Context, t Tree) (Review, error) {
	r, _, err := m.changes(ctx, t)
	return r, err
}

// Review reads what t's session changed, with git's diff. It blocks while git reads the
// worktree.
func (m *Manager) Review(ctx context.Context, t Tree) (Review, error) {
	r, snap, err := m.changes(ctx, t)
	if err != nil {
		return Review{}, err
	}
	diff, err := m.git.Run(ctx, t.Repo, nil, "diff-tree", "-p", "--no-renames", "--no-color", "--no-ext-diff", t.Base, snap)
	if err != nil {
		return Review{}, fmt.Errorf("review worktree %s: %w", t.Path, err)
	}
	r.Diff = string(diff)
	return r, nil
}

// changes snapshots t and lists its files against t.Base; it returns the snapshot's tree too.
func (m *Manager) changes(ctx context.Context, t Tree) (Review, string, error) {
	snap, err := m.snapshot(ctx, t)
	if err != nil {
		return Review{}, "", err
	}
	out, err := m.git.Run(ctx, t.Repo, nil, "diff-tree", "-r", "-z", "--no-renames", "--raw", "--numstat", t.Base, snap)
	if err != nil {
		return Review{}, "", fmt.Errorf("review worktree %s: %w", t.Path, err)
	}
	var r Review
	r.Files = parseRawNumstat(out)
	for _, c := range r.Files {
		r.Added += c.Added
		r.Removed += c.Removed
	}
	return r, snap, nil
}

// parseRawNumstat reads `git diff-tree -r -z --raw --numstat`: raw entries
// (":mode mode id id S" NUL path NUL), then numstat ones ("added TAB removed TAB path" NUL).
func parseRawNumstat(out []byte) []Change {
	var files []Change
	at := map[string]int{}
	fields := bytes.Split(bytes.TrimSuffix(out, []byte{0}), []byte{0})
	for i := 0; i < len(fields); i++ {
		f := string(fields[i])
		if strings.HasPrefix(f, ":") && i+1 < len(fields) {
			i++
			path := string(fields[i])
			at[path] = len(files)
			files = append(files, Change{Path: path, Status: rawStatus(f)})
			continue
		}
		parts := strings.SplitN(f, "\t", 3)
		if len(parts) != 3 {
			continue
		}
		n, ok := at[parts[2]]
		if !ok {
			continue
		}
		if parts[0] == "-" {
			files[n].Binary = true
			continue
		}
		files[n].Added, _ = strconv.Atoi(parts[0])
		files[n].Removed, _ = strconv.Atoi(parts[1])
	}
	return files
}

// rawStatus words the status letter that ends a raw diff entry's header.
func rawStatus(header string) string {
	switch header[len(header)-1:] {
	case "A":
		return "added"
	case "D":
		return "deleted"
	case "T":
		return "type"
	}
	return "modified"
}

// Commit commits everything t's session changed, untracked files included, on the worktree's
// branch with message, and returns the new commit's id. The person's branches, HEAD and index
// are not touched; their git identity (user.name, user.email) signs it, and git's words say
// when there is none. It fails with ErrNothingToCommit when there is no change.
func (m *Manager) Commit(ctx context.Context, t Tree, message string) (string, error) {
	if strings.TrimSpace(message) == "" {
		return "", errors.New("a commit needs a message")
	}
	if _, err := m.git.Run(ctx, t.Path, nil, "add", "--all", "--", "."); err != nil {
		return "", fmt.Errorf("commit in worktree %s: %w", t.Path, err)
	}
	if _, err := m.git.Run(ctx, t.Path, nil, "diff", "--cached", "--quiet"); err == nil {
		return "", ErrNothingToCommit
	}
	if _, err := m.git.Run(ctx, t.Path, nil, "commit", "--quiet", "--no-verify", "-m", message); err != nil {
		return "", fmt.Errorf("commit in worktree %s: %w", t.Path, err)
	}
	out, err := m.git.Run(ctx, t.Path, nil, "rev-parse", "HEAD")
	if err != nil {
		return "", fmt.Errorf("commit in worktree %s: %w", t.Path, err)
	}
	return strings.TrimSpace(string(out)), nil
}
