package main

import (
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// bindingsDir holds the Wails bindings, one <Service>.d.ts per bound service: what Wails binds,
// kept in step with the Go code by scripts/bindings.sh --check.
const bindingsDir = "frontend/wailsjs/go/main"

var boundVerb = regexp.MustCompile(`(?m)^export function (\w+)\(`)

// verbTable is one row per bound verb: its service, the Go file that declares it and the first
// sentence of its doc comment. The verbs are the bindings'; the rest is read from the root
// package's source (every file, whatever its build tags).
func verbTable(root string) (string, error) {
	dts, err := filepath.Glob(filepath.Join(root, bindingsDir, "*.d.ts"))
	if err != nil || len(dts) == 0 {
		return "", fmt.Errorf("no bindings in %s (run make bindings)", bindingsDir)
	}
	methods, err := rootMethods(root)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("| service | verb | file | what it does (its doc comment) |\n|---|---|---|---|\n")
	sort.Strings(dts)
	for _, path := range dts {
		service := strings.TrimSuffix(filepath.Base(path), ".d.ts")
		src, err := os.ReadFile(path)
		if err != nil {
			return "", err
		}
		verbs := boundVerb.FindAllStringSubmatch(string(src), -1)
		if len(verbs) == 0 {
			return "", fmt.Errorf("%s binds no verb", path)
		}
		for _, v := range verbs {
			m, ok := methods[service+"."+v[1]]
			if !ok {
				return "", fmt.Errorf("%s.%s is bound but no Go method of %s declares it in the root package", service, v[1], service)
			}
			if m.doc == "" {
				return "", fmt.Errorf("%s.%s (%s) has no doc comment", service, v[1], m.file)
			}
			fmt.Fprintf(&b, "| `%s` | `%s` | `%s` | %s |\n", service, v[1], m.file, cell(m.doc))
		}
	}
	return b.String(), nil
}

// method is where a Go method is declared and what its doc comment says first.
type method struct{ file, doc string }

// rootMethods reads the exported methods of the root package by "Type.Method".
func rootMethods(root string) (map[string]method, error) {
	files, err := goFiles(root)
	if err != nil {
		return nil, err
	}
	out := map[string]method{}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, filepath.Join(root, name), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || !fn.Name.IsExported() {
				continue
			}
			t := fn.Recv.List[0].Type
			if star, ok := t.(*ast.StarExpr); ok {
				t = star.X
			}
			if id, ok := t.(*ast.Ident); ok {
				out[id.Name+"."+fn.Name.Name] = method{file: name, doc: synopsis(fn.Doc.Text())}
			}
		}
	}
	return out, nil
}

// goFiles lists the non-test Go files of dir, sorted.
func goFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if n := e.Name(); !e.IsDir() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			out = append(out, n)
		}
	}
	return out, nil
}

// synopsis is the first sentence of a doc comment, on one line.
func synopsis(text string) string {
	return new(doc.Package).Synopsis(text)
}

// cell makes text safe in a Markdown table cell.
func cell(text string) string {
	return strings.ReplaceAll(text, "|", `\|`)
}
