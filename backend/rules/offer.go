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

// Offer returns the rules for this agent in the session folder the request is in that a person
// may make from req, narrowest last: the request's kind; that kind on the folder its paths are in
// (when every path is in one folder below the session folder's top); and for an execute call
// that is one plain command, the commands that start with its leading words. The session folder
// is the one that holds every path the request names, else the working folder. An offered rule
// matches req unless req reaches outside the session's folders or names what cannot be placed
// (callers offer only the rules that Match it).
func Offer(req Request) []Offered {
	if len(req.Folders) == 0 || req.Kind == "" {
		return nil
	}
	pl := placeRequest(req)
	home, rel := 0, make([]string, 0, len(pl.abs))
	for n, abs := range pl.abs {
		i, r, ok := under(pl.roots, abs)
		if !ok || (n > 0 && i != home) {
			home, rel = 0, nil
			break
		}
		home, rel = i, append(rel, r)
	}
	base := Rule{AgentID: req.AgentID, Folder: req.Folders[home], Kind: req.Kind}
	out := []Offered{{Scope: ScopeKind, Rule: base}}
	if len(rel) > 0 && req.Command == "" { // a command's words name no folder to scope it to
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
	if pl.plain && req.Kind == "execute" {
		var prefix []string
		for _, w := range pl.words {
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
