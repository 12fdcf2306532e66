package rules

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Request is what a permission request says, as the matcher needs it.
type Request struct {
	AgentID string
	// Folders are the session's folders, absolute: the working folder first, then any
	// additional ones. Paths are judged against them and against a rule's own folder.
	Folders []string
	// Home is the person's home folder, against which `~`, `$HOME` and `${HOME}` are resolved
	// ("": such paths cannot be placed).
	Home string
	Kind string
	// Tool is the tool call's title; Name its tool's own name (ACP 1.35), "" when the agent sent
	// none. A rule's Tool is compared with Name when there is one, else with Tool (toolOf).
	Tool string
	Name string
	// Paths are the paths the tool call names in its ACP fields (its locations, its diffs):
	// absolute, relative to the working folder, `~/…`, `$HOME/…` or `file:` URIs.
	Paths []string
	// Input is the rest of what the tool call carries, as the agent sent it (its raw input,
	// content the caller could not read as text or a diff): every string in it a tool could use
	// as a path is placed and judged like Paths (inputPaths).
	Input []json.RawMessage
	// Command is an execute call's command line ("" otherwise).
	Command string
}

// Match returns the rule of rules that decides req, or nil when none does (the person is asked);
// see Set.Match. It prepares rules for this one request: a caller matching many requests against
// one list keeps a Set (Compile) instead.
func Match(rules []Rule, req Request) *Rule {
	return Compile(rules).Match(req)
}

// Match returns the rule that decides req, or nil when none does (the person is asked). Disabled
// rules never match. The most specific rule wins; at equal specificity a reject wins; then the
// earlier rule in the set.
func (s *Set) Match(req Request) *Rule {
	if s == nil || len(s.rules) == 0 {
		return nil
	}
	pl := placeRequest(req)        // once: paths resolved, the command line parsed
	folders := map[string]string{} // a rule's folder, resolved once per request
	folder := func(dir string) string {
		if r, ok := folders[dir]; ok {
			return r
		}
		folders[dir] = resolve(filepath.Clean(dir))
		return folders[dir]
	}
	var best *Rule
	for i := range s.rules {
		r := &s.rules[i]
		if r.Disabled || !matches(*r, s.ready[i], req, pl, folder) {
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

// matches reports whether r, prepared as rd, matches req, given req placed (placeRequest) and
// folder, which resolves a rule's folder.
func matches(r Rule, rd ready, req Request, pl placement, folder func(string) string) bool {
	if r.AgentID != "" && r.AgentID != req.AgentID {
		return false
	}
	if r.Kind != "" && r.Kind != req.Kind {
		return false
	}
	if r.Tool != "" && r.Tool != toolOf(req) {
		return false
	}
	if r.Folder != "" && !inFolder(folder(r.Folder), req, pl) {
		return false
	}
	if r.Path != "" {
		// Every path the request names must be in the rule's folder (a rule for any project: in
		// a session folder) and match the glob there.
		if !rd.globOK || len(pl.abs) == 0 {
			return false
		}
		for _, abs := range pl.abs {
			var rel string
			var ok bool
			if r.Folder != "" {
				rel, ok = relTo(folder(r.Folder), abs)
			} else {
				_, rel, ok = under(pl.roots, abs)
			}
			if !ok {
				return false
			}
			if m, err := doublestar.Match(rd.glob, rel); err != nil || !m {
				return false
			}
		}
	}
	if r.Command != "" {
		if !rd.cmdOK || !pl.plain || len(pl.words) < len(rd.words) {
			return false
		}
		for i := range rd.words {
			if pl.words[i] != rd.words[i] {
				return false
			}
		}
	}
	// An allow never reaches outside the session's folders, nor answers what cannot be placed.
	return r.Decision != Allow || (!pl.outside && !pl.unplaced)
}

// inFolder reports whether req is in the rule's folder root (resolved): every path it names
// is, and, when it names none or runs a command (which runs there), so is the working folder.
func inFolder(root string, req Request, pl placement) bool {
	if len(pl.abs) == 0 || req.Command != "" {
		if len(pl.roots) == 0 || !within(root, pl.roots[0]) {
			return false
		}
	}
	for _, abs := range pl.abs {
		if !within(root, abs) {
			return false
		}
	}
	return true
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

// toolOf is what a rule's Tool is compared with: the tool's own name, stable across calls
// ("Bash"), when the agent sends one, else the call's title as before. A call with a name is not
// matched on its title: the name is what the tool is, the title what it says it does.
func toolOf(req Request) string {
	if req.Name != "" {
		return req.Name
	}
	return req.Tool
}
