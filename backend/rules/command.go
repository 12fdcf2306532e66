package rules

import (
	"path/filepath"
	"strings"
	"unicode"

	"mvdan.cc/sh/v3/syntax"
)

// injecting are the options that make a command run, evaluate or load something its words do
// not show: another program (find's -exec, go's -exec and -toolexec, rsync's -e, a shell's or
// git's -c, ssh's ProxyCommand), code (--eval, --require) or a file of settings (--config,
// --rcfile). Named without their dashes; each matches as -name, --name and with =value. A
// command line with one is never an ordinary use of its program: no allow answers it.
var injecting = map[string]bool{
	"exec": true, "execdir": true, "ok": true, "okdir": true, "toolexec": true, "exec-path": true,
	"c": true, "e": true, "eval": true, "command": true, "shell": true, "rsh": true,
	"config": true, "config-file": true, "rcfile": true, "init-file": true, "settings": true,
	"require": true, "import": true, "preload": true, "loader": true, "plugin": true, "load": true,
	"upload-pack": true, "receive-pack": true, "pager": true, "editor": true,
}

// interpreters take code to run in an option, also in a cluster of short options (`bash -lc`,
// `perl -ne`): with one of them, a cluster holding c or e injects too. Named without a version
// (python3.12 is python).
var interpreters = map[string]bool{
	"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true, "fish": true, "busybox": true,
	"python": true, "node": true, "perl": true, "ruby": true, "php": true, "lua": true, "awk": true, "gawk": true,
}

// commandPaths is what the words of a plain command line name beyond its program: each
// argument, or the value of an `--option=value`, that reads as a path (looksLikePath), for the
// matcher to place. ok is false when an argument is an injecting option (or, for an
// interpreter, a cluster with c or e): then the line's reach cannot be told from its words.
func commandPaths(words []string) (paths []string, ok bool) {
	interp := interpreters[strings.TrimRight(filepath.Base(words[0]), "0123456789.")]
	for _, w := range words[1:] {
		if injects(w) || interp && codeCluster(w) {
			return nil, false
		}
		if strings.HasPrefix(w, "-") {
			_, value, hasValue := strings.Cut(w, "=")
			if !hasValue {
				continue
			}
			w = value
		}
		if looksLikePath(w) {
			paths = append(paths, w)
		}
	}
	return paths, true
}

// injects reports whether the word w is an injecting option, or sets ssh's ProxyCommand or
// LocalCommand (`-o ProxyCommand=…`).
func injects(w string) bool {
	lower := strings.ToLower(w)
	if strings.Contains(lower, "proxycommand") || strings.Contains(lower, "localcommand") {
		return true
	}
	if !strings.HasPrefix(w, "-") {
		return false
	}
	name, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(w, "-"), "-"), "=")
	return injecting[name]
}

// codeCluster reports whether w is a cluster of short options holding -c or -e (`-lc`, `-ne`).
func codeCluster(w string) bool {
	opts, ok := strings.CutPrefix(w, "-")
	if !ok || opts == "" || strings.HasPrefix(opts, "-") || !strings.ContainsAny(opts, "ce") {
		return false
	}
	for _, c := range opts {
		if !unicode.IsLetter(c) {
			return false
		}
	}
	return true
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
