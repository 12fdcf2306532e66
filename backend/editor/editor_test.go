package editor

import (
	"reflect"
	"testing"
)

func TestFor(t *testing.T) {
	const file = "/src/app/main.go"
	for _, c := range []struct {
		visual, editor string
		path           string
		line           int
		want           Launch
	}{
		{"", "", file, 12, Launch{Argv: []string{"xdg-open", file}}},
		{"code --wait", "vim", file, 12, Launch{Argv: []string{"code", "--wait", "--goto", file + ":12"}}},
		{"", "vim", file, 12, Launch{Argv: []string{"vim", "+12", file}, Terminal: true}},
		{"", "/usr/bin/nvim", file, 0, Launch{Argv: []string{"/usr/bin/nvim", file}, Terminal: true}},
		{"", "emacs -nw", file, 3, Launch{Argv: []string{"emacs", "-nw", "+3", file}, Terminal: true}},
		{"'/opt/my editor/bin/zed'", "", file, 7, Launch{Argv: []string{"/opt/my editor/bin/zed", file + ":7"}}},
		{"kate", "", file, 7, Launch{Argv: []string{"kate", "--line", "7", file}}},
		{"someeditor", "", file, 7, Launch{Argv: []string{"someeditor", file}}},
		// An agent-named path is one argument, never shell text.
		{"", "vim", "/src/app/; rm -rf ~ $(id)", 1, Launch{Argv: []string{"vim", "+1", "/src/app/; rm -rf ~ $(id)"}, Terminal: true}},
		// A variable in the editor variable is not looked up.
		{"$EVIL code", "", file, 0, Launch{Argv: []string{"code", file}}},
	} {
		env := map[string]string{"VISUAL": c.visual, "EDITOR": c.editor}
		got, err := For(c.path, c.line, func(k string) string { return env[k] })
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("VISUAL=%q EDITOR=%q %s:%d: %+v (%v), want %+v", c.visual, c.editor, c.path, c.line, got, err, c.want)
		}
	}
	if _, err := For(file, 1, func(k string) string { return map[string]string{"EDITOR": `code "unclosed`}[k] }); err == nil {
		t.Error("an editor variable with an unclosed quote was accepted")
	}
	if _, err := For("relative.go", 1, func(string) string { return "" }); err == nil {
		t.Error("a relative path was accepted")
	}
}
