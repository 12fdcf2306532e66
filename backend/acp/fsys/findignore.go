package fsys

import (
	"os"
	"path/filepath"
	"strings"

	"agentdesk/backend/ignore"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// vcsDirs are version control data, never searched whatever the ignore files say.
var vcsDirs = map[string]bool{".git": true, ".hg": true, ".svn": true}

// heavyDirs are dependencies, caches and tool homes, which crowd out a project's own files. They
// are skipped only in folders no project ignore file governs (findRules.governed): a home
// folder as session folder stays fast, while in a project its .gitignore decides. Other hidden
// folders (.github, .vscode) are searched: they hold files people attach.
var heavyDirs = map[string]bool{
	"node_modules": true, "__pycache__": true, ".venv": true, ".cache": true,
	".local": true, ".npm": true, ".yarn": true, ".pnpm-store": true, ".cargo": true, ".rustup": true, ".gradle": true,
	".m2": true, ".mypy_cache": true, ".pytest_cache": true, ".tox": true, ".next": true, ".nuxt": true,
	".terraform": true, ".Trash": true,
}

// findRules are the ignore patterns in force in one folder of a search, each list in ascending
// priority (a deeper folder's file after its parent's). Across lists the priority is ripgrep's:
// .ignore over .gitignore over .git/info/exclude over the person's global excludes. A folder
// that adds no patterns shares its parent's findRules.
type findRules struct {
	global, exclude, git, rg []gitignore.Pattern
	matcher                  gitignore.Matcher // nil when there are no patterns at all
}

// newFindRules makes the rules of the given lists, with their matcher.
func newFindRules(global, exclude, git, rg []gitignore.Pattern) *findRules {
	r := &findRules{global: global, exclude: exclude, git: git, rg: rg}
	if n := len(global) + len(exclude) + len(git) + len(rg); n > 0 {
		all := make([]gitignore.Pattern, 0, n)
		all = append(append(append(append(all, global...), exclude...), git...), rg...)
		r.matcher = gitignore.NewMatcher(all)
	}
	return r
}

// governed reports whether project ignore files (.gitignore, .ignore, .git/info/exclude) hold
// patterns for this folder; where none do, heavyDirs are skipped instead.
func (r *findRules) governed() bool { return len(r.exclude)+len(r.git)+len(r.rg) > 0 }

// ignored reports whether the entry at path (components from the top of the rules' domains)
// is left out.
func (r *findRules) ignored(path []string, isDir bool) bool {
	return r.matcher != nil && r.matcher.Match(path, isDir)
}

// ignoreFiles are the names a folder's own ignore patterns are read from.
type ignoreFiles struct{ exclude, git, rg string }

// with returns the rules of a folder (domain: its path in components) given the paths of its
// ignore files ("" for none): the parent's rules, then its own.
func (r *findRules) with(files ignoreFiles, domain []string) *findRules {
	read := func(path string) []gitignore.Pattern {
		if path == "" {
			return nil
		}
		data, err := ignore.ReadFile(path)
		if err != nil {
			return nil
		}
		return ignore.Parse(data, domain)
	}
	ex, git, rg := read(files.exclude), read(files.git), read(files.rg)
	if len(ex)+len(git)+len(rg) == 0 {
		return r
	}
	grow := func(a, b []gitignore.Pattern) []gitignore.Pattern { return append(a[:len(a):len(a)], b...) }
	return newFindRules(r.global, grow(r.exclude, ex), grow(r.git, git), grow(r.rg, rg))
}

// outerRules returns the rules the folder inherits from above it and the folder's path in their
// domain: when it lies beneath the top of a git repository, that repository's info/exclude and
// the .gitignore and .ignore files of the folders from the top down to its parent, with base the
// folder's path from the top. When those rules ignore the folder itself, the person opened an
// ignored folder on purpose: only the global patterns apply, with base empty.
func (f *Folder) outerRules(global []gitignore.Pattern) (base []string, rules *findRules) {
	rules = newFindRules(global, nil, nil, nil)
	top := f.root
	for {
		if _, err := os.Lstat(filepath.Join(top, ".git")); err == nil {
			break
		}
		parent := filepath.Dir(top)
		if parent == top {
			return nil, rules // not in a repository; the walk reads what lies beneath
		}
		top = parent
	}
	if top == f.root {
		return nil, rules // the walk reads the repository's own files
	}
	rel, err := filepath.Rel(top, f.root)
	if err != nil {
		return nil, rules
	}
	base = strings.Split(filepath.ToSlash(rel), "/")
	outer := rules.with(ignoreFiles{exclude: ignore.InfoExclude(filepath.Join(top, ".git"))}, nil)
	for i := 0; i < len(base); i++ {
		dir := filepath.Join(append([]string{top}, base[:i]...)...)
		outer = outer.with(ignoreFiles{git: regular(dir, ".gitignore"), rg: regular(dir, ".ignore")}, base[:i])
		if outer.ignored(base[:i+1], true) {
			return nil, rules
		}
	}
	return base, outer
}

// regular is the path of dir's file name when it is a regular file (not a link, as git reads
// .gitignore), else "".
func regular(dir, name string) string {
	p := filepath.Join(dir, name)
	if st, err := os.Lstat(p); err == nil && st.Mode().IsRegular() {
		return p
	}
	return ""
}
