package main

import (
	"regexp"
	"strings"
)

// Snippets: a component's {#snippet name(testid, …)} whose markup sets data-testid={testid} takes
// its ids from the {@render name('id', …)} calls in the same component, as a prop takes them from
// the component's users.

var (
	snippetDecl = regexp.MustCompile(`\{#snippet\s+(\w+)\(`)
	renderCall  = regexp.MustCompile(`\{@render\s+(\w+)\??\.?\(`)
	paramName   = regexp.MustCompile(`^\s*(\w+)`)
	stringArg   = regexp.MustCompile(`^\s*(?:'([^']*)'|"([^"]*)")\s*$`)
)

// snippetArgs adds to passed, for each snippet parameter of markup, the string literals that the
// snippet's render calls pass in that parameter's place.
func snippetArgs(markup string, passed map[string][]string) map[string][]string {
	params := map[string][]string{} // snippet → its parameter names, in order
	for _, loc := range snippetDecl.FindAllStringSubmatchIndex(markup, -1) {
		var names []string
		for _, p := range callArgs(markup[loc[1]:]) {
			if m := paramName.FindStringSubmatch(p); m != nil {
				names = append(names, m[1])
			}
		}
		params[markup[loc[2]:loc[3]]] = names
	}
	if len(params) == 0 {
		return passed
	}
	out := map[string][]string{}
	for k, v := range passed {
		out[k] = v
	}
	for _, loc := range renderCall.FindAllStringSubmatchIndex(markup, -1) {
		names := params[markup[loc[2]:loc[3]]]
		for i, arg := range callArgs(markup[loc[1]:]) {
			if m := stringArg.FindStringSubmatch(arg); m != nil && i < len(names) {
				out[names[i]] = append(out[names[i]], m[1]+m[2])
			}
		}
	}
	return out
}

// callArgs splits the arguments of a call whose text starts just after its "(", up to the
// matching ")": commas inside quotes, parentheses, brackets or braces do not split.
func callArgs(s string) []string {
	var args []string
	depth, quote, start := 0, byte(0), 0
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case ch == '"' || ch == '\'' || ch == '`':
			quote = ch
		case strings.IndexByte("([{", ch) >= 0:
			depth++
		case ch == ')' && depth == 0:
			return append(args, s[start:i])
		case strings.IndexByte(")]}", ch) >= 0:
			depth--
		case ch == ',' && depth == 0:
			args, start = append(args, s[start:i]), i+1
		}
	}
	return args
}
