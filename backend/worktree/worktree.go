package worktree

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// BranchPrefix starts the name of every branch agentdesk makes: the only branches it adds to a
// person's repository, and the only ones Discard deletes.
const BranchPrefix = "agentdesk/"

var (
	// ErrNotRepository is a project folder that no git repository holds.
	ErrNotRepository = errors.New("the folder is not in a git repository")
	// ErrNoCommits is a repository without a commit yet: a worktree needs one to start from.
	ErrNoCommits = errors.New("the repository has no commit yet")
	// ErrBadName is a worktree name that is not 1 to 40 lower-case letters, digits and dashes.
	ErrBadName = errors.New("a worktree's name is 1 to 40 lower-case letters, digits and dashes")
	// ErrNotOurs is a Tree that is not one of this Manager's: outside its folder, or a branch
	// without BranchPrefix. Discard refuses it and touches nothing.
	ErrNotOurs = errors.New("not a worktree agentdesk made")
)

var validName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,39}$`)

// Manager makes and removes sessions' worktrees in its root folder (in agentdesk's data
// folder). It is safe for concurrent use: git serialises the changes of one repository with its
// own lock files, and each worktree has a folder and a branch of its own.
type Manager struct {
	root string
	git  Git
}

// NewManager returns a Manager keeping worktrees under root (created when first needed), running
// git through git.
func NewManager(root string, git Git) *Manager { return &Manager{root: root, git: git} }

// Tree is one session's worktree.
type Tree struct {
	Repo   string `json:"repo"`   // the person's repository: its top folder
	Path   string `json:"path"`   // the worktree's top folder
	Cwd    string `json:"cwd"`    // the session's folder: the project's place in the worktree
	Branch string `json:"branch"` // BranchPrefix + the name
	Base   string `json:"base"`   // the commit the worktree started from (the person's HEAD then)
}

// Create makes a worktree for a session in project, named name, on a new branch
// agentdesk/<name> from the commit the person's HEAD names now. The person's uncommitted
// changes stay theirs: the worktree holds the commit. It fails with ErrBadName,
// ErrNotRepository or ErrNoCommits, or with git's words (a branch or worktree of that name
// exists). It blocks while git checks the files out.
func (m *Manager) Create(ctx context.Context, project, name string) (Tree, error) {
	if !validName.MatchString(name) {
		return Tree{}, fmt.Errorf("worktree %q: %w", name, ErrBadName)
	}
	real, top, base, err := m.repository(ctx, project)
	if err != nil {
		return Tree{}, err
	}
	rel, _ := filepath.Rel(top, real)
	t := Tree{Repo: top, Branch: BranchPrefix + name, Base: base}
	t.Path = filepath.Join(m.root, repoKey(top), name)
	t.Cwd = filepath.Join(t.Path, rel)
	if err := os.MkdirAll(filepath.Dir(t.Path), 0o700); err != nil {
		return Tree{}, fmt.Errorf("worktree of %s: %w", project, err)
	}
	if _, err := m.git.Run(ctx, top, nil, "worktree", "add", "--quiet", "-b", t.Branch, t.Path, t.Base); err != nil {
		return Tree{}, fmt.Errorf("worktree of %s: %w", project, err)
	}
	return t, nil
}

// repository finds project's real path, the top of the repository holding it and the commit its
// HEAD names.
func (m *Manager) repository(ctx context.Context, project string) (real, top, base string, err error) {
	real, err = filepath.EvalSymlinks(project)
	if err != nil {
		return "", "", "", fmt.Errorf("worktree of %s: %w", project, err)
	}
	out, err := m.git.Run(ctx, real, nil, "rev-parse", "--show-toplevel")
	if err != nil {
		var ge *GitError
		if errors.As(err, &ge) {
			return "", "", "", fmt.Errorf("worktree of %s: %w", project, ErrNotRepository)
		}
		return "", "", "", fmt.Errorf("worktree of %s: %w", project, err)
	}
	top = strings.TrimSpace(string(out))
	rel, err := filepath.Rel(top, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", "", "", fmt.Errorf("worktree of %s: %w", project, ErrNotRepository)
	}
	out, err = m.git.Run(ctx, top, nil, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
	if err != nil {
		return "", "", "", fmt.Errorf("worktree of %s: %w", project, ErrNoCommits)
	}
	return real, top, strings.TrimSpace(string(out)), nil
}

// repoKey names a repository's folder of worktrees: its folder's name (made safe) and a hash of
// its path, so that two repositories of one name do not share it.
func repoKey(top string) string {
	base := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, filepath.Base(top))
	base = strings.TrimLeft(base, ".")
	if len(base) > 40 {
		base = base[:40]
	}
	sum := sha256.Sum256([]byte(top))
	return base + "-" + hex.EncodeToString(sum[:4])
}

// Status is how a worktree stands against where it started.
type Status struct {
	Ahead  int `json:"ahead"`  // commits on the worktree's branch since Base
	Behind int `json:"behind"` // commits on the person's HEAD since Base
	Dirty  int `json:"dirty"`  // files the worktree changed and did not commit (untracked ones too)
}

// Status reads t's state with git. It blocks while git reads the worktree's files.
func (m *Manager) Status(ctx context.Context, t Tree) (Status, error) {
	var s Status
	var err error
	if s.Ahead, err = m.count(ctx, t.Path, t.Base+"..HEAD"); err != nil {
		return Status{}, fmt.Errorf("status of worktree %s: %w", t.Path, err)
	}
	if s.Behind, err = m.count(ctx, t.Repo, t.Base+"..HEAD"); err != nil {
		return Status{}, fmt.Errorf("status of worktree %s: %w", t.Path, err)
	}
	out, err := m.git.Run(ctx, t.Path, nil, "status", "--porcelain=v1", "-z", "--untracked-files=all")
	if err != nil {
		return Status{}, fmt.Errorf("status of worktree %s: %w", t.Path, err)
	}
	s.Dirty = porcelainEntries(out)
	return s, nil
}

// count is the number of commits in revs (rev-list --count).
func (m *Manager) count(ctx context.Context, dir, revs string) (int, error) {
	out, err := m.git.Run(ctx, dir, nil, "rev-list", "--count", revs, "--")
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(string(out)))
}

// porcelainEntries counts the files of `git status --porcelain=v1 -z`: each entry is "XY path",
// NUL-ended, and a rename or copy is followed by its source path.
func porcelainEntries(out []byte) int {
	n := 0
	fields := bytes.Split(bytes.TrimSuffix(out, []byte{0}), []byte{0})
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if len(f) < 3 {
			continue
		}
		n++
		if f[0] == 'R' || f[0] == 'C' {
			i++ // the source path
		}
	}
	return n
}

// Discard removes t's worktree, with whatever it holds, and its branch: afterwards the
// repository's worktrees and branches are as they were before Create. It refuses (ErrNotOurs) a
// Tree outside the Manager's folder or with a branch not its own. It never follows a link: one
// put in place of the worktree's folder, or left inside it, is removed, not what it points to.
// A worktree whose folder is gone already is pruned.
func (m *Manager) Discard(ctx context.Context, t Tree) error {
	rel, err := filepath.Rel(m.root, t.Path)
	if err != nil || !filepath.IsLocal(rel) || strings.Count(rel, string(filepath.Separator)) != 1 ||
		!strings.HasPrefix(t.Branch, BranchPrefix) || !validName.MatchString(strings.TrimPrefix(t.Branch, BranchPrefix)) {
		return fmt.Errorf("discard %s (%s): %w", t.Path, t.Branch, ErrNotOurs)
	}
	// The folder is moved aside and removed here rather than by git worktree remove, which
	// follows a link put in the folder's place and empties whatever it points to. A rename moves
	// the name itself, link or folder, and os.RemoveAll never follows a link.
	trash, err := os.MkdirTemp(m.root, ".discard-")
	if err != nil {
		return fmt.Errorf("discard %s: %w", t.Path, err)
	}
	defer os.RemoveAll(trash)
	if err := os.Rename(t.Path, filepath.Join(trash, "tree")); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("discard %s: %w", t.Path, err)
	}
	if err := os.RemoveAll(trash); err != nil {
		return fmt.Errorf("discard %s: %w", t.Path, err)
	}
	if _, err := m.git.Run(ctx, t.Repo, nil, "worktree", "prune"); err != nil {
		return fmt.Errorf("discard %s: %w", t.Path, err)
	}
	if _, err := m.git.Run(ctx, t.Repo, nil, "branch", "-D", "--", t.Branch); err != nil {
		return fmt.Errorf("discard branch %s: %w", t.Branch, err)
	}
	return nil
}
