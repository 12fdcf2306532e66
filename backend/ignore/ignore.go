// Package ignore reads git's ignore files (.gitignore, ripgrep's .ignore, .git/info/exclude and
// the person's global excludes file) into go-git's gitignore patterns, so that the change ledger
// and the file finder leave out the same files git does, matched by go-git rather than by hand.
package ignore

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/go-git/go-git/v5/plumbing/format/config"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// FileCap bounds how much of one ignore file is read (an agent may write a huge one).
const FileCap = 1 << 20

// Parse reads the patterns of one ignore file in git's syntax; domain is the path, in
// components, of the directory holding the file (nil for rules that apply everywhere).
func Parse(data []byte, domain []string) []gitignore.Pattern {
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), FileCap)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps
}

// ReadFile reads at most FileCap bytes of a regular file. It never blocks: the file is opened
// with O_NONBLOCK (a FIFO with no writer would block a plain open for ever) and anything that is
// not a regular file, checked on the open descriptor, is an error and is not read. A link is
// followed: these are the person's own files (a dotfiles link is common), or read by a caller
// that has made sure of the name.
func ReadFile(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("read %s: it is not a regular file", path)
	}
	return io.ReadAll(io.LimitReader(f, FileCap))
}

// Global returns the person's own ignore patterns, found as git finds them: the file named by
// core.excludesFile in /etc/gitconfig, $XDG_CONFIG_HOME/git/config (~/.config/git/config) or
// ~/.gitconfig (the last one setting it wins), else $XDG_CONFIG_HOME/git/ignore
// (~/.config/git/ignore). Missing or unreadable files are no patterns. go-git's own
// LoadGlobalPatterns reads only ~/.gitconfig and has no default file, hence this.
func Global() []gitignore.Pattern {
	home, _ := os.UserHomeDir()
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	configs := []string{"/etc/gitconfig"}
	if xdg != "" {
		configs = append(configs, filepath.Join(xdg, "git", "config"))
	}
	if home != "" {
		configs = append(configs, filepath.Join(home, ".gitconfig"))
	}
	file := ""
	for _, c := range configs {
		if v := excludesFile(c); v != "" {
			file = v
		}
	}
	switch {
	case file == "~" || strings.HasPrefix(file, "~/"):
		if home == "" {
			return nil
		}
		file = filepath.Join(home, file[1:])
	case file == "" && xdg != "":
		file = filepath.Join(xdg, "git", "ignore")
	case file == "":
		return nil
	}
	data, err := ReadFile(file)
	if err != nil {
		return nil
	}
	return Parse(data, nil)
}

// excludesFile is core.excludesFile as one git config file sets it, "" when it does not.
func excludesFile(path string) string {
	data, err := ReadFile(path)
	if err != nil {
		return ""
	}
	raw := config.New()
	if err := config.NewDecoder(bytes.NewReader(data)).Decode(raw); err != nil {
		return ""
	}
	// Option names are case-insensitive in git; go-git's Options.Get compares them so.
	return raw.Section("core").Options.Get("excludesfile")
}

// InfoExclude is the path of the info/exclude file of the repository whose ".git" entry is at
// gitPath: a folder, or a file naming one ("gitdir: …", a worktree or submodule), whose
// "commondir" file, when present, names the folder shared by all worktrees. "" when gitPath is
// neither.
func InfoExclude(gitPath string) string {
	st, err := os.Stat(gitPath)
	switch {
	case err != nil:
		return ""
	case st.IsDir():
		return filepath.Join(gitPath, "info", "exclude")
	}
	data, err := ReadFile(gitPath)
	if err != nil {
		return ""
	}
	dir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return ""
	}
	dir = strings.TrimSpace(dir)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(filepath.Dir(gitPath), dir)
	}
	if common, err := ReadFile(filepath.Join(dir, "commondir")); err == nil {
		c := strings.TrimSpace(string(common))
		if !filepath.IsAbs(c) {
			c = filepath.Join(dir, c)
		}
		dir = c
	}
	return filepath.Join(dir, "info", "exclude")
}
