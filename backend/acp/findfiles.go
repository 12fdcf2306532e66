package acp

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// FolderFile is a file of the session folder offered for attaching.
type FolderFile struct {
	Path string `json:"path"` // relative to the session folder, with forward slashes
	Name string `json:"name"`
	Size int64  `json:"size"`
}

// findBudget bounds how many folder entries one search looks at, so that a huge folder (a home
// folder) answers quickly with what was found near its top.
const findBudget = 50_000

// skipDirs are folders never searched: version control data, dependencies, caches and tool
// homes, which crowd out a project's own files (a session folder may be a home folder). Other
// hidden folders (.github, .vscode) are searched: they hold files people attach.
var skipDirs = map[string]bool{
	".git": true, ".hg": true, ".svn": true, "node_modules": true, "__pycache__": true, ".venv": true, ".cache": true,
	".local": true, ".npm": true, ".yarn": true, ".pnpm-store": true, ".cargo": true, ".rustup": true, ".gradle": true,
	".m2": true, ".mypy_cache": true, ".pytest_cache": true, ".tox": true, ".next": true, ".nuxt": true,
	".terraform": true, ".Trash": true,
}

// FindFiles lists up to limit files of the folder whose relative path matches query, best match
// first: the name equal to the query, then starting with it, containing it, the path containing
// it, then the query's characters in order in the path (case-insensitive). An empty query lists
// the files nearest the top first. Folders are searched breadth first without following links to
// folders; a linked file is listed only when it resolves inside the folder.
func (f *Folder) FindFiles(query string, limit int) []FolderFile {
	q := strings.ToLower(strings.TrimSpace(query))
	type match struct {
		FolderFile
		score, depth int
	}
	var found []match
	queue := []string{""}
	seen := 0
	for len(queue) > 0 && seen < findBudget {
		rel := queue[0]
		queue = queue[1:]
		entries, err := os.ReadDir(filepath.Join(f.root, rel))
		if err != nil {
			continue // unreadable folders are skipped, not fatal
		}
		for _, d := range entries {
			seen++
			name := d.Name()
			p := filepath.Join(rel, name)
			if d.IsDir() {
				if !skipDirs[name] {
					queue = append(queue, p)
				}
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
