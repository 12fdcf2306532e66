package fsys

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"agentdesk/backend/ignore"
)

// FolderFile is a file of the session folder offered for attaching.
type FolderFile struct {
	Path string `json:"path"` // relative to the session folder, with forward slashes
	Name string `json:"name"`
	Size int64  `json:"size"`
}

// findBudget bounds how many folder entries one search looks at, so that a huge folder (a home
// folder) answers quickly with what was found near its top. Entries of ignored folders are not
// read, so they do not count. A variable so that tests can lower it.
var findBudget = 50_000

// FindFiles lists up to limit files of the folder whose relative path matches query, best match
// first: the name equal to the query, then starting with it, containing it, the path containing
// it, then the query's characters in order in the path (case-insensitive). An empty query lists
// the files nearest the top first. Folders are searched breadth first without following links to
// folders; a linked file is listed only when it resolves inside the folder.
//
// What git or ripgrep would ignore is left out, matched by go-git's gitignore package: the
// .gitignore and .ignore files of each folder (for it and below, "!" re-including), the
// repository's .git/info/exclude (also of a repository nested inside), the files above the
// folder up to the top of its repository, and the person's global excludes file (ignore.Global).
// An ignored folder is not read at all. .git, .hg and .svn are never searched. The rule for
// heavy folders (heavyDirs: node_modules, .cache, tool homes): they are skipped in any folder
// that no project ignore file governs — none in it or above it up to the repository's top, and
// no info/exclude patterns — so a home folder stays fast; where ignore files govern, they alone
// decide, as in git.
func (f *Folder) FindFiles(query string, limit int) []FolderFile {
	q := strings.ToLower(strings.TrimSpace(query))
	type match struct {
		FolderFile
		score, depth int
	}
	type dir struct {
		rel   string   // relative to the folder
		path  []string // in the rules' domain: base, then rel's components
		rules *findRules
	}
	var found []match
	base, rules := f.outerRules(ignore.Global())
	queue := []dir{{path: base, rules: rules}}
	var buf []string
	seen := 0
	for len(queue) > 0 && seen < findBudget {
		cur := queue[0]
		queue = queue[1:]
		entries, err := os.ReadDir(filepath.Join(f.root, cur.rel))
		if err != nil {
			continue // unreadable folders are skipped, not fatal
		}
		// This folder's own ignore files apply to its entries, so they are read first.
		var own ignoreFiles
		for _, d := range entries {
			switch p := filepath.Join(f.root, cur.rel, d.Name()); {
			case d.Name() == ".gitignore" && d.Type().IsRegular():
				own.git = p
			case d.Name() == ".ignore" && d.Type().IsRegular():
				own.rg = p
			case d.Name() == ".git":
				own.exclude = ignore.InfoExclude(p)
			}
		}
		rs := cur.rules.with(own, cur.path)
		for _, d := range entries {
			seen++
			name := d.Name()
			p := filepath.Join(cur.rel, name)
			buf = append(append(buf[:0], cur.path...), name)
			if d.IsDir() {
				if !vcsDirs[name] && (rs.governed() || !heavyDirs[name]) && !rs.ignored(buf, true) {
					n := len(cur.path)
					queue = append(queue, dir{rel: p, path: append(cur.path[:n:n], name), rules: rs})
				}
				continue
			}
			if rs.ignored(buf, false) {
				continue
			}
			var size int64
			switch {
			case d.Type().IsRegular():
				if info, err := d.Info(); err == nil {
					size = info.Size()
				}
			case d.Type()&os.ModeSymlink != 0:
				real, err := f.resolve(filepath.Join(f.root, p))
				st, serr := os.Stat(real)
				if err != nil || serr != nil || !st.Mode().IsRegular() {
					continue
				}
				size = st.Size()
			default:
				continue // sockets, devices, pipes
			}
			slash := filepath.ToSlash(p)
			score := matchScore(q, strings.ToLower(name), strings.ToLower(slash))
			if score < 0 {
				continue
			}
			found = append(found, match{FolderFile{Path: slash, Name: name, Size: size}, score, strings.Count(slash, "/")})
			if q == "" && len(found) >= limit {
				queue = nil // breadth first: these are the nearest
				break
			}
		}
	}
	sort.SliceStable(found, func(i, j int) bool {
		a, b := found[i], found[j]
		if a.score != b.score {
			return a.score < b.score
		}
		if a.depth != b.depth {
			return a.depth < b.depth
		}
		return a.Path < b.Path
	})
	out := make([]FolderFile, 0, min(limit, len(found)))
	for i := 0; i < len(found) && i < limit; i++ {
		out = append(out, found[i].FolderFile)
	}
	return out
}

// matchScore ranks how well query matches a file (lower is better); -1 is no match.
func matchScore(query, name, path string) int {
	switch {
	case query == "":
		return 0
	case name == query:
		return 0
	case strings.HasPrefix(name, query):
		return 1
	case strings.Contains(name, query):
		return 2
	case strings.Contains(path, query):
		return 3
	case subsequence(query, path):
		return 4
	}
	return -1
}

// subsequence reports whether the runes of q appear in s in order.
func subsequence(q, s string) bool {
	for _, r := range q {
		i := strings.IndexRune(s, r)
		if i < 0 {
			return false
		}
		s = s[i+len(string(r)):]
	}
	return true
}
