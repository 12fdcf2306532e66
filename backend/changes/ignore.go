package changes

import (
	"agentdesk/backend/ignore"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// ignoreFileCap bounds how much of one ignore file is read (an agent may write a huge one).
const ignoreFileCap = ignore.FileCap

// rules are the ignore patterns in force in one directory: git's, in ascending priority.
type rules struct {
	patterns []gitignore.Pattern
}

// ignored says whether the entry at path (components beneath the folder) is left out.
func (r *rules) ignored(path []string, isDir bool) bool {
	if len(r.patterns) == 0 {
		return false
	}
	return gitignore.NewMatcher(r.patterns).Match(path, isDir)
}

// with returns the rules of a directory (domain: its path beneath the folder) whose ignore
// file holds data: the parent's rules, then its own.
func (r *rules) with(data []byte, domain []string) *rules {
	ps := ignore.Parse(data, domain)
	if len(ps) == 0 {
		return r
	}
	out := &rules{patterns: make([]gitignore.Pattern, 0, len(r.patterns)+len(ps))}
	out.patterns = append(append(out.patterns, r.patterns...), ps...)
	return out
}

// GlobalIgnores returns the person's own ignore patterns, as git reads them (see
// ignore.Global). Ledger calls it once.
func GlobalIgnores() []gitignore.Pattern { return ignore.Global() }
