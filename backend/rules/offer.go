package rules

import (
	"path"
	"regexp"
	"strings"
)

// Scopes of the rules a person may make from a permission request.
const (
	ScopeKind    = "kind"    // every call of the request's kind in the project
	ScopeFolder  = "folder"  // calls of that kind on the folder the request's paths are in
	ScopeCommand = "command" // execute calls whose command starts as this one does
)

// Offered is a rule a person may make from a request: its scope and the rule, with no ID and
// no Decision yet.
type Offered struct {
	Scope string
	Rule  Rule
}

// maxPrefixWords bounds a suggested command prefix: "go test", "npm run build".
const maxPrefixWords = 3

// prefixWord is a word a suggested command prefix may hold: a program or subcommand name, not
// an option, a path or an argument with spaces.
var prefixWord = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:+-]*$`)

// Offer returns the rules for this agent in this project (req.Folders[0]) that a person may make
// from req, narrowest last: the request's kind; that kind on the folder its paths are in (when
// every path is in one folder below the project's); and for an execute call that is one plain
// command, the commands that start with its leading words. Each offered rule matches req.
func Offer(req Request) []Offered {
	if len(req.Folders) == 0 || req.Kind == "" {
		return nil
	}
	base := Rule{AgentID: req.AgentID, Folder: req.Folders[0], Kind: req.Kind}
	out := []Offered{{Scope: ScopeKind, Rule: base}}
	if rel, inside := relPaths(req); inside && len(rel) > 0 {
		dir := path.Dir(rel[0])
		same := dir != "." && !strings.HasPrefix(dir, "..")
		for _, p := range rel {
			same = same && (path.Dir(p) == dir || strings.HasPrefix(p, dir+"/"))
		}
		if same {
			r := base
			r.Path = escapeGlob(dir) + "/**"
			out = append(out, Offered{Scope: ScopeFolder, Rule: r})
		}
	}
	if words, ok := plainCommand(req.Command); ok && req.Kind == "execute" {
		var prefix []string
		for _, w := range words {
			if len(prefix) == maxPrefixWords || !prefixWord.MatchString(w) {
				break
			}
			prefix = append(prefix, w)
		}
		if len(prefix) > 0 {
			r := base
			r.Command = strings.Join(prefix, " ")
			out = append(out, Offered{Scope: ScopeCommand, Rule: r})
		}
	}
	return out
}

// escapeGlob quotes the glob characters of a literal folder name.
func escapeGlob(s string) string {
	var b strings.Builder
	for _, c := range s {
		if strings.ContainsRune(`*?[]{}\`, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}
