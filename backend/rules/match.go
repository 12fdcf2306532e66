package rules

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"mvdan.cc/sh/v3/syntax"
)

// Request is what a permission request says, as the matcher needs it.
type Request struct {
	AgentID string
	// Folders are the session's folders, absolute: the working folder first, then any
	// additional ones. Paths and Folder rules are judged against them.
	Folders []string
	Kind    string
	Tool    string
	// Paths are the paths the tool call names (its locations, its raw input's path), absolute or
	// relative to the working folder.
	Paths []string
	// Command is an execute call's command line ("" otherwise).
	Command string
}

// Match returns the rule that decides req, or nil when none does (the person is asked). Disabled
// rules never match. The most specific rule wins; at equal specificity a reject wins; then the
// earlier rule in rules.
func Match(rules []Rule, req Request) *Rule {
	rel, inside := relPaths(req)
	words, plain := plainCommand(req.Command) // once, not per command rule
	var best *Rule
	for i := range rules {
		r := &rules[i]
		if r.Disabled || !matches(*r, req, rel, inside, words, plain) {
			continue
		}
		switch {
		case best == nil, r.specificity() > best.specificity():
			best = r
		case r.specificity() == best.specificity() && r.Decision == Reject && best.Decision != Reject:
			best = r
		}
	}
	return best
}

// matches reports whether r matches req, given req's paths placed (relPaths) and its command
// line split (plainCommand).
func matches(r Rule, req Request, rel []string, inside bool, got []string, plain bool) bool {
	if r.AgentID != "" && r.AgentID != req.AgentID {
		return false
	}
	if r.Folder != "" && (len(req.Folders) == 0 || !within(filepath.Clean(r.Folder), req.Folders[0])) {
		return false
	}
	if r.Kind != "" && r.Kind != req.Kind {
		return false
	}
	if r.Tool != "" && r.Tool != req.Tool {
		return false
	}
	if r.Path != "" {
		// Every path the request names must be inside a session folder and match the glob.
		if !inside || len(rel) == 0 {
			return false
		}
		glob, err := cleanGlob(r.Path)
		if err != nil {
			return false
		}
		for _, p := range rel {
			if ok, err := doublestar.Match(glob, p); err != nil || !ok {
				return false
			}
		}
	}
	if r.Command != "" {
		want, ok := plainCommand(r.Command)
		if !ok {
			return false
		}
		if !plain || len(got) < len(want) {
			return false
		}
		for i := range want {
			if got[i] != want[i] {
				return false
			}
		}
	}
	// An allow never reaches outside the session's folders, whatever rule it is.
	if r.Decision == Allow && len(req.Paths) > 0 && !inside {
		return false
	}
	return true
}

// relPaths places each of req's paths in a session folder: its slash-separated path relative to
// that folder, symlinks resolved. inside is false when any path is outside every folder (or
// cannot be placed), and then no path rule matches.
func relPaths(req Request) (rel []string, inside bool) {
	if len(req.Folders) == 0 {
		return nil, len(req.Paths) == 0
	}
	roots := make([]string, 0, len(req.Folders))
	for _, f := range req.Folders {
		roots = append(roots, resolve(filepath.Clean(f)))
	}
	for _, p := range req.Paths {
		if p == "" || strings.ContainsRune(p, 0) {
			return nil, false
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(req.Folders[0], p)
		}
		abs := resolve(filepath.Clean(p))
		placed := false
		for _, root := range roots {
			if r, err := filepath.Rel(root, abs); err == nil && r != ".." && !strings.HasPrefix(r, "../") {
				rel = append(rel, filepath.ToSlash(r))
				placed = true
				break
			}
		}
		if !placed {
			return nil, false
		}
	}
	return rel, true
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

// cleanGlob checks a rule's path glob: relative, no `..`, valid doublestar syntax.
func cleanGlob(g string) (string, error) {
	g = strings.TrimPrefix(filepath.ToSlash(g), "./")
	switch {
	case g == "" || strings.HasPrefix(g, "/"):
		return "", errors.New("a path glob is relative to the session folder (like src/** or *.go)")
	case g == ".." || strings.HasPrefix(g, "../") || strings.Contains(g, "/../") || strings.HasSuffix(g, "/.."):
		return "", errors.New("a path glob cannot climb out of the session folder with ..")
	case !doublestar.ValidatePattern(g):
		return "", errors.New("the path glob " + g + " is not a valid pattern")
	}
	return g, nil
}

// plainCommand splits a command line into its words when it is one plain command: literal words
// only (quotes allowed), no second command, operator, pipe, redirection, background job,
// substitution, variable or glob. ok is false otherwise.
func plainCommand(line string) (words []string, ok bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil || len(f.Stmts) != 1 {
		return nil, false
	}
	st := f.Stmts[0]
	if st.Background || st.Coprocess || st.Negated || len(st.Redirs) > 0 {
		return nil, false
	}
	call, isCall := st.Cmd.(*syntax.CallExpr)
	if !isCall || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return nil, false
	}
	for _, w := range call.Args {
		lit, ok := literal(w)
		if !ok {
			return nil, false
		}
		words = append(words, lit)
	}
	return words, true
}

// literal is a word's text when it has no expansion of any kind (quotes are removed).
func literal(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "*?[{~\\") {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				lit, isLit := q.(*syntax.Lit)
				if !isLit {
					return "", false
				}
				b.WriteString(lit.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}
