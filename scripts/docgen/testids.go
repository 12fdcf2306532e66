package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// The UI test contract: every data-testid the Svelte components set, in which components, and
// which test suites read it.

// idReaders are the test suites that find elements by data-testid, by the files they are in.
var idReaders = []struct {
	name  string
	dir   string
	match func(path string) bool
}{
	{"e2e", "e2e", func(p string) bool { return strings.HasSuffix(p, ".mjs") || strings.HasSuffix(p, ".js") }},
	{"smoke", ".", func(p string) bool { return p == "selftest.js" }},
	{"vitest", "frontend/src", func(p string) bool {
		return strings.HasSuffix(p, ".test.ts") || strings.HasPrefix(p, "test/") && strings.HasSuffix(p, ".ts")
	}},
}

var (
	scriptOrStyle = regexp.MustCompile(`(?s)<(script|style)\b[^>]*>.*?</(script|style)>`)
	propsDecl     = regexp.MustCompile(`(?s)let\s*\{(.*?)\}\s*(?::\s*\w+\s*)?=\s*\$props\(\)`)
	propDefault   = regexp.MustCompile(`(\w+)\s*=\s*['"]([^'"]*)['"]`)
	componentTag  = regexp.MustCompile(`<([A-Z]\w*)\b`)
	literalAttr   = regexp.MustCompile(`([\w-]+)="([^"{}]*)"`)
	stringLiteral = regexp.MustCompile(`'([a-z][a-z0-9-]*)'|"([a-z][a-z0-9-]*)"`)
	placeholder   = regexp.MustCompile(`\{([^{}]*)\}|\$\{([^{}]*)\}`)
	identifier    = regexp.MustCompile(`^\w+$`)
)

// component is one .svelte file: its markup (no script or style), its props' string defaults.
type component struct {
	name, markup string
	defaults     map[string]string
}

// testidTable is one row per data-testid: the components that set it and the suites that read it.
// An id a prop names is read from where the component is used ("{testid}-add" with testid="mcp-env"
// is mcp-env-add) or from the prop's default, an id a snippet's parameter names from the snippet's
// render calls; an id made at run time shows {…} for that part.
func testidTable(root string) (string, error) {
	comps, err := components(filepath.Join(root, "frontend", "src"))
	if err != nil {
		return "", err
	}
	// usages["Comp"]["prop"] holds the literal values the other components pass.
	usages := map[string]map[string][]string{}
	for _, c := range comps {
		for _, tag := range tags(c.markup, componentTag) {
			name := componentTag.FindStringSubmatch(tag)[1]
			for _, a := range literalAttr.FindAllStringSubmatch(tag, -1) {
				if usages[name] == nil {
					usages[name] = map[string][]string{}
				}
				usages[name][a[1]] = append(usages[name][a[1]], a[2])
			}
		}
	}
	where := map[string]map[string]bool{} // id → components
	for _, c := range comps {
		passed := snippetArgs(c.markup, usages[c.name])
		for _, v := range testidValues(c.markup) {
			for _, id := range expand(v, c, passed) {
				if where[id] == nil {
					where[id] = map[string]bool{}
				}
				where[id]["`"+c.name+"`"] = true
			}
		}
	}
	if len(where) == 0 {
		return "", fmt.Errorf("no data-testid in frontend/src")
	}
	readers, err := readerTexts(root)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("| data-testid | set by | read by |\n|---|---|---|\n")
	for _, id := range sortedKeys(boolKeys(where)) {
		var by []string
		re := idPattern(id)
		for _, r := range idReaders {
			if re.MatchString(readers[r.name]) {
				by = append(by, r.name)
			}
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", id, strings.Join(sortedKeys(where[id]), ", "), strings.Join(by, ", "))
	}
	return b.String(), nil
}

// components reads every .svelte file beneath src, sorted by path.
func components(src string) ([]component, error) {
	paths, err := filesUnder(src, func(rel string) bool { return strings.HasSuffix(rel, ".svelte") })
	if err != nil {
		return nil, err
	}
	out := make([]component, 0, len(paths))
	for _, path := range paths {
		text, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		c := component{name: strings.TrimSuffix(filepath.Base(path), ".svelte"), defaults: map[string]string{},
			markup: scriptOrStyle.ReplaceAllString(string(text), "")}
		if m := propsDecl.FindStringSubmatch(string(text)); m != nil {
			for _, p := range propDefault.FindAllStringSubmatch(m[1], -1) {
				c.defaults[p[1]] = p[2]
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// tags returns each tag of markup that start matches, from its < to its closing > (a > inside
// quotes or braces, as in an arrow function, does not close it).
func tags(markup string, start *regexp.Regexp) []string {
	var out []string
	for _, loc := range start.FindAllStringIndex(markup, -1) {
		depth, quote := 0, byte(0)
		for i := loc[1]; i < len(markup); i++ {
			switch ch := markup[i]; {
			case quote != 0:
				if ch == quote {
					quote = 0
				}
			case ch == '"' || ch == '\'' || ch == '`':
				quote = ch
			case ch == '{':
				depth++
			case ch == '}':
				depth--
			case ch == '>' && depth == 0:
				out = append(out, markup[loc[0]:i+1])
				i = len(markup)
			}
		}
	}
	return out
}

// testidValues returns each data-testid value of markup as written: "a-{b}" for a quoted value,
// the expression in braces for {expr}.
func testidValues(markup string) []string {
	var out []string
	for rest := markup; ; {
		i := strings.Index(rest, "data-testid=")
		if i < 0 {
			return out
		}
		rest = rest[i+len("data-testid="):]
		switch {
		case strings.HasPrefix(rest, `"`):
			end := strings.IndexByte(rest[1:], '"')
			if end < 0 {
				return out
			}
			out = append(out, rest[1:1+end])
		case strings.HasPrefix(rest, "{"):
			depth := 0
			for j := 0; j < len(rest); j++ {
				if rest[j] == '{' {
					depth++
				} else if rest[j] == '}' {
					if depth--; depth == 0 {
						out = append(out, rest[:j+1])
						break
					}
				}
			}
		}
	}
}

// expand turns one written value into the ids it can be, with the props c's users pass.
func expand(value string, c component, passed map[string][]string) []string {
	if strings.HasPrefix(value, "{") && strings.HasSuffix(value, "}") {
		expr := strings.TrimSpace(value[1 : len(value)-1])
		switch {
		case strings.HasPrefix(expr, "`") && strings.HasSuffix(expr, "`"):
			value = expr[1 : len(expr)-1] // a template literal: its ${…} are placeholders
		case identifier.MatchString(expr):
			// a prop: as below
		default: // an expression: the ids it names as string literals
			var out []string
			for _, m := range stringLiteral.FindAllStringSubmatch(expr, -1) {
				out = append(out, m[1]+m[2])
			}
			return out
		}
	}
	ids := []string{""}
	last := 0
	for _, loc := range placeholder.FindAllStringSubmatchIndex(value, -1) {
		lit := value[last:loc[0]]
		expr := ""
		if loc[2] >= 0 {
			expr = value[loc[2]:loc[3]]
		} else {
			expr = value[loc[4]:loc[5]]
		}
		expr = strings.TrimSpace(expr)
		choices := append([]string(nil), passed[expr]...)
		if d, ok := c.defaults[expr]; ok {
			choices = append(choices, d)
		}
		if !identifier.MatchString(expr) || len(choices) == 0 {
			choices = []string{"{…}"}
		}
		var next []string
		for _, id := range ids {
			for _, ch := range choices {
				next = append(next, id+lit+ch)
			}
		}
		ids, last = next, loc[1]
	}
	for i := range ids {
		ids[i] += value[last:]
	}
	return ids
}

// readerTexts is the text of each suite's files, joined.
func readerTexts(root string) (map[string]string, error) {
	out := map[string]string{}
	for _, r := range idReaders {
		var paths []string
		var err error
		if r.dir == "." { // files of the root itself, not beneath it
			paths, err = filepath.Glob(filepath.Join(root, "*.js"))
			paths = keep(paths, func(p string) bool { return r.match(filepath.Base(p)) })
		} else {
			dir := filepath.Join(root, r.dir)
			paths, err = filesUnder(dir, r.match)
		}
		if err != nil {
			return nil, err
		}
		var b strings.Builder
		for _, path := range paths {
			text, err := os.ReadFile(path)
			if err != nil {
				return nil, err
			}
			b.Write(text)
			b.WriteByte('\n')
		}
		out[r.name] = b.String()
	}
	return out, nil
}

// keep returns the paths match keeps.
func keep(paths []string, match func(string) bool) []string {
	var out []string
	for _, p := range paths {
		if match(p) {
			out = append(out, p)
		}
	}
	return out
}

// idPattern finds id as a whole quoted string ("id", 'id', `id`, or data-testid="id" inside a
// selector); each {…} of it stands for any id characters or a ${…}.
func idPattern(id string) *regexp.Regexp {
	parts := strings.Split(id, "{…}")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile("[\"'`]" + strings.Join(parts, `(?:[a-z0-9-]+|\$\{[^}]*\})`) + "[\"'`]")
}

// boolKeys is the set of m's keys.
func boolKeys[V any](m map[string]V) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}
