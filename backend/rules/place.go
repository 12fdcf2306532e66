package rules

import (
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"unicode"
)

// placement is where a request's paths are: each placed path absolute, clean and with its
// symlinks resolved, the session's folders likewise, and whether anything could not be placed.
type placement struct {
	abs      []string // every path placed, in the request's order
	roots    []string // the session's folders, resolved; roots[0] the working folder
	unplaced bool     // a path, the command line or other input could not be placed
	outside  bool     // a placed path is outside every session folder
	words    []string // the command line's words, when plain
	plain    bool     // the command line is one plain command (plainCommand)
}

// placeRequest places every path req names: its Paths, the paths in its Input (inputPaths)
// and the words of its command line that name one (commandPaths).
func placeRequest(req Request) placement {
	var pl placement
	for _, f := range req.Folders {
		pl.roots = append(pl.roots, resolve(filepath.Clean(f)))
	}
	cwd := ""
	if len(req.Folders) > 0 {
		cwd = req.Folders[0]
	}
	paths := append([]string(nil), req.Paths...)
	for _, in := range req.Input {
		more, ok := inputPaths(in, req.Kind == "execute")
		pl.unplaced = pl.unplaced || !ok
		paths = append(paths, more...)
	}
	if req.Command != "" {
		pl.words, pl.plain = plainCommand(req.Command)
		more, ok := []string(nil), false
		if pl.plain {
			more, ok = commandPaths(pl.words)
		}
		pl.unplaced = pl.unplaced || !ok
		paths = append(paths, more...)
	}
	for _, p := range paths {
		abs, ok := place(p, req.Home, cwd)
		if !ok {
			pl.unplaced = true
			continue
		}
		pl.abs = append(pl.abs, abs)
		if _, _, in := under(pl.roots, abs); !in {
			pl.outside = true
		}
	}
	return pl
}

// place makes one path a request names absolute, clean and with its symlinks resolved: `~`,
// `~/…`, `$HOME`, `${HOME}` and what is below them against home; a `file:` URI of this machine
// to its path; a relative path against cwd. ok is false for what cannot be placed, never
// guessed: an empty path, a control character, another user's `~name`, any other variable or
// substitution (`$X`, `${X}`, `$(…)`, a backtick), a `file:` URI of another host or a relative
// one, `~` with no home, a relative path with no cwd.
func place(p, home, cwd string) (string, bool) {
	if p == "" || strings.IndexFunc(p, unicode.IsControl) >= 0 {
		return "", false
	}
	if len(p) >= 5 && strings.EqualFold(p[:5], "file:") {
		u, err := url.Parse(p)
		if err != nil || u.Opaque != "" || (u.Host != "" && u.Host != "localhost") || u.Path == "" {
			return "", false
		}
		p = u.Path // decoded: %00 and friends are checked again below
		if strings.IndexFunc(p, unicode.IsControl) >= 0 || !filepath.IsAbs(p) {
			return "", false
		}
	}
	switch rest, ok := homeRelative(p); {
	case ok && (home == "" || !filepath.IsAbs(home)):
		return "", false
	case ok:
		p = home + rest
	case strings.HasPrefix(p, "~"):
		return "", false // ~name: another user's home, not ours to guess
	}
	if expands(p) {
		return "", false
	}
	if !filepath.IsAbs(p) {
		if cwd == "" {
			return "", false
		}
		p = filepath.Join(cwd, p)
	}
	return resolve(filepath.Clean(p)), true
}

// homeRelative splits off the home folder's spellings (`~`, `$HOME`, `${HOME}`) from the start
// of p: rest is what follows ("" or "/…"); ok is false when p does not start with one.
func homeRelative(p string) (rest string, ok bool) {
	for _, h := range []string{"~", "$HOME", "${HOME}"} {
		if p == h || strings.HasPrefix(p, h+"/") {
			return p[len(h):], true
		}
	}
	return "", false
}

// expands reports whether a shell would expand part of p: a variable, a substitution or a
// backtick. A tool may hand the path to one, so its place cannot be known.
func expands(p string) bool {
	if strings.ContainsRune(p, '`') {
		return true
	}
	for i := strings.IndexByte(p, '$'); i >= 0; i = strings.IndexByte(p, '$') {
		if i+1 < len(p) && p[i+1] != '/' { // $X, ${X}, $(…), $1, $$: all expand
			return true
		}
		p = p[i+1:]
	}
	return false
}

// under returns the first root that holds abs, its index and abs relative to it
// (slash-separated); ok is false when none does.
func under(roots []string, abs string) (i int, rel string, ok bool) {
	for i, root := range roots {
		if r, in := relTo(root, abs); in {
			return i, r, true
		}
	}
	return -1, "", false
}

// relTo is abs relative to root, slash-separated, when abs is root or beneath it.
func relTo(root, abs string) (string, bool) {
	r, err := filepath.Rel(root, abs)
	if err != nil || r == ".." || strings.HasPrefix(r, "../") {
		return "", false
	}
	return filepath.ToSlash(r), true
}

// resolve follows the symlinks of the longest part of p that exists, so a link inside the folder
// that points outside it is judged by where it points; the rest (not yet created) is kept as is.
func resolve(p string) string {
	rest := ""
	for cur := p; ; {
		if real, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(real, rest)
		} else if !errors.Is(err, os.ErrNotExist) {
			return filepath.Join(cur, rest) // unreadable: compared as written
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// within reports whether dir is root or beneath it (both clean and absolute).
func within(root, dir string) bool {
	dir = filepath.Clean(dir)
	return dir == root || strings.HasPrefix(dir, strings.TrimSuffix(root, string(filepath.Separator))+string(filepath.Separator))
}
