package cli

import (
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestEveryCommandIsDocumented: the package doc comment (which docs/architecture.md's generated
// packages table quotes) and the README's command list name every command the tree has, so
// neither can leave one out (the architecture doc once listed the commands without chat).
func TestEveryCommandIsDocumented(t *testing.T) {
	root := newRoot(Stdio{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}, Options{})
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var doc string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments|parser.PackageClauseOnly)
		if err != nil {
			t.Fatal(err)
		}
		if f.Doc != nil {
			doc += f.Doc.Text()
		}
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	commands := root.Commands()
	if len(commands) < 10 {
		t.Fatalf("the tree has %d commands; expected every headless command", len(commands))
	}
	for _, c := range commands {
		name := regexp.QuoteMeta(c.Name())
		if !regexp.MustCompile(`\b` + name + `\b`).MatchString(doc) {
			t.Errorf("the package doc comment does not name the command %q", c.Name())
		}
		if c.Name() == "help" {
			continue // agentdesk --help is how the README says it
		}
		if !regexp.MustCompile(`(?m)^agentdesk ` + name + `\b`).Match(readme) {
			t.Errorf("README.md's command list has no line for agentdesk %s", c.Name())
		}
	}
}
