// Package editor decides how to open a file at a line in the person's editor: $VISUAL, then
// $EDITOR, else the desktop's default application for the file (xdg-open).
//
// Guarantees:
//   - Nothing runs through a shell. The editor variable is split into words as a shell would
//     split it (quotes honoured, nothing expanded or run), and the file is one argument of its
//     own, after the editor's, so a path an agent named ("; rm -rf ~", "$(…)") is only ever a
//     file name; it is absolute, so it never reads as an option.
//   - The line is a number this package formats, never text from elsewhere.
//   - An editor that needs a terminal (vi, vim, nvim, nano, emacs -nw, micro, hx, kak) is said to
//     need one (Launch.Terminal); the caller runs it in a terminal window.
//
// The package runs nothing itself: the caller starts Launch.Argv.
package editor

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/shell"
)

// Launch is how to open a file: the program and its arguments, and whether it needs a terminal.
type Launch struct {
	Argv     []string
	Terminal bool
}

// terminalEditors run inside a terminal.
var terminalEditors = []string{"vi", "vim", "nvim", "nano", "micro", "hx", "helix", "kak", "joe", "ne", "mg", "emacs-nox"}

// For returns how to open path (absolute) at line (0: none) with the editor getenv names
// ($VISUAL, then $EDITOR), or with xdg-open when neither is set. An editor variable that does
// not split into words (an unclosed quote) is an error that names it.
func For(path string, line int, getenv func(string) string) (Launch, error) {
	name, value := "VISUAL", strings.TrimSpace(getenv("VISUAL"))
	if value == "" {
		name, value = "EDITOR", strings.TrimSpace(getenv("EDITOR"))
	}
	if !filepath.IsAbs(path) {
		return Launch{}, fmt.Errorf("open %q: not an absolute path", path)
	}
	if value == "" {
		return Launch{Argv: []string{"xdg-open", path}}, nil
	}
	// Expanding nothing: a $VAR in the editor variable is left empty rather than looked up.
	words, err := shell.Fields(value, func(string) string { return "" })
	if err != nil || len(words) == 0 {
		return Launch{}, fmt.Errorf("$%s (%q) is not a command line: %v", name, value, err)
	}
	prog := filepath.Base(words[0])
	l := Launch{Argv: slices.Clone(words)}
	l.Terminal = slices.Contains(terminalEditors, prog) || (prog == "emacs" && slices.Contains(words, "-nw"))
	l.Argv = append(l.Argv, lineArgs(prog, path, line)...)
	return l, nil
}

// lineArgs are the arguments that open path at line in the editor prog (its own syntax), or
// path alone for an editor whose syntax is not known.
func lineArgs(prog, path string, line int) []string {
	if line <= 0 {
		return []string{path}
	}
	n := strconv.Itoa(line)
	switch prog {
	case "code", "code-insiders", "codium", "vscodium", "cursor", "windsurf":
		return []string{"--goto", path + ":" + n}
	case "subl", "sublime_text", "zed", "zeditor", "hx", "helix", "micro":
		return []string{path + ":" + n}
	case "kate", "idea", "goland", "pycharm", "webstorm", "clion", "rustrover":
		return []string{"--line", n, path}
	case "vi", "vim", "nvim", "gvim", "nano", "emacs", "emacsclient", "gedit", "gnome-text-editor", "kak", "joe", "ne", "mg", "emacs-nox":
		return []string{"+" + n, path}
	}
	return []string{path}
}
