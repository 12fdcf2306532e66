package changes

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// ignoreFileCap bounds how much of one ignore file is read (an agent may write a huge one).
const ignoreFileCap = 1 << 20

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
	ps := parseIgnore(data, domain)
	if len(ps) == 0 {
		return r
	}
	out := &rules{patterns: make([]gitignore.Pattern, 0, len(r.patterns)+len(ps))}
	out.patterns = append(append(out.patterns, r.patterns...), ps...)
	return out
}

// parseIgnore reads the patterns of one ignore file, git's syntax.
func parseIgnore(data []byte, domain []string) []gitignore.Pattern {
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), ignoreFileCap)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if line == "" || strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps
}

// GlobalIgnores returns the person's own ignore patterns, as git reads them: the file
// core.excludesFile names in ~/.gitconfig (or /etc/gitconfig), else $XDG_CONFIG_HOME/git/ignore
// (~/.config/git/ignore). Missing files are no patterns; Ledger calls it once.
func GlobalIgnores() []gitignore.Pattern {
	fs := osfs.New("/")
	ps, _ := gitignore.LoadGlobalPatterns(fs)
	if len(ps) == 0 {
		ps, _ = gitignore.LoadSystemPatterns(fs)
	}
	if len(ps) > 0 {
		return ps
	}
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return nil
		}
		dir = filepath.Join(home, ".config")
	}
	data, err := readCapped(filepath.Join(dir, "git", "ignore"))
	if err != nil {
		return nil
	}
	return parseIgnore(data, nil)
}

// readCapped reads at most ignoreFileCap bytes of a file.
func readCapped(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, ignoreFileCap))
}
