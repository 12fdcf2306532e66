package main

import (
	"bufio"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// pkg is one Go package of the module as the tables show it.
type pkg struct {
	dir     string   // relative to the root, "." for the root
	doc     string   // the first sentence of its doc comment
	imports []string // the folders of the module's packages it imports, sorted
}

// name is how the tables name p.
func (p pkg) name() string {
	if p.dir == "." {
		return "root (`main`)"
	}
	return "`" + p.dir + "`"
}

// packageTable is one row per Go package of the module: the first sentence of its doc comment
// and the packages of this module it imports (non-test files, whatever their build tags).
func packageTable(root string) (string, error) {
	pkgs, err := readPackages(root)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("| package | what it is (its doc comment) | imports of this module |\n|---|---|---|\n")
	for _, p := range pkgs {
		short := make([]string, len(p.imports))
		for i, imp := range p.imports {
			short[i] = strings.TrimPrefix(imp, "backend/")
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", p.name(), cell(p.doc), quoted(short))
	}
	return b.String(), nil
}

// layerTable draws the import graph as layers: each package on the first line above every
// package it imports, the root on top, the packages that import none of ours at the bottom. So
// every import points down the drawing, and a line says which packages stand side by side.
func layerTable(root string) (string, error) {
	pkgs, err := readPackages(root)
	if err != nil {
		return "", err
	}
	byDir := map[string]pkg{}
	for _, p := range pkgs {
		byDir[p.dir] = p
	}
	level := map[string]int{}
	var depth func(dir string, seen map[string]bool) (int, error)
	depth = func(dir string, seen map[string]bool) (int, error) {
		if l, ok := level[dir]; ok {
			return l, nil
		}
		if seen[dir] {
			return 0, fmt.Errorf("an import cycle through %s", dir)
		}
		seen[dir] = true
		l := 0
		for _, imp := range byDir[dir].imports {
			d, err := depth(imp, seen)
			if err != nil {
				return 0, err
			}
			l = max(l, d+1)
		}
		level[dir] = l
		return l, nil
	}
	top := 0
	for _, p := range pkgs {
		l, err := depth(p.dir, map[string]bool{})
		if err != nil {
			return "", err
		}
		top = max(top, l)
	}
	var b strings.Builder
	b.WriteString("```\n")
	for l := top; l >= 0; l-- {
		var names []string
		for _, p := range pkgs {
			if level[p.dir] == l {
				names = append(names, strings.ReplaceAll(p.name(), "`", ""))
			}
		}
		fmt.Fprintf(&b, "%s\n", strings.Join(names, "   "))
		if l > 0 {
			b.WriteString("   ▼\n")
		}
	}
	b.WriteString("```\n")
	return b.String(), nil
}

// readPackages reads every package of the module under root, the root first, then by folder.
func readPackages(root string) ([]pkg, error) {
	module, err := modulePath(root)
	if err != nil {
		return nil, err
	}
	dirs, err := packageDirs(root)
	if err != nil {
		return nil, err
	}
	var out []pkg
	for _, dir := range dirs {
		files, err := goFiles(filepath.Join(root, dir))
		if err != nil {
			return nil, err
		}
		p := pkg{dir: filepath.ToSlash(dir)}
		imports := map[string]bool{}
		fset := token.NewFileSet()
		for _, name := range files {
			f, err := parser.ParseFile(fset, filepath.Join(root, dir, name), nil, parser.ParseComments|parser.ImportsOnly)
			if err != nil {
				return nil, err
			}
			if f.Doc != nil && p.doc == "" {
				p.doc = synopsis(f.Doc.Text())
			}
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if rel, ok := strings.CutPrefix(path, module+"/"); ok {
					imports[rel] = true
				}
			}
		}
		if p.doc == "" {
			return nil, fmt.Errorf("package %s has no doc comment", p.name())
		}
		p.imports = sortedKeys(imports)
		out = append(out, p)
	}
	return out, nil
}

// modulePath is the module's path, from root's go.mod.
func modulePath(root string) (string, error) {
	f, err := os.Open(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if m, ok := strings.CutPrefix(strings.TrimSpace(s.Text()), "module "); ok {
			return strings.TrimSpace(m), nil
		}
	}
	return "", fmt.Errorf("go.mod names no module")
}

// packageDirs lists the folders (relative to root, "." first) holding a Go package of the root
// module: not testdata, hidden or frontend folders, nor another module's.
func packageDirs(root string) ([]string, error) {
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		name := d.Name()
		if rel != "." {
			if strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules" || rel == "frontend" || rel == "build" {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // a module of its own (tools/wails)
			}
		}
		files, err := goFiles(path)
		if err != nil {
			return err
		}
		if len(files) > 0 {
			dirs = append(dirs, rel)
		}
		return nil
	})
	sort.Slice(dirs, func(i, j int) bool { return dirs[i] == "." || (dirs[j] != "." && dirs[i] < dirs[j]) })
	return dirs, err
}

// quoted lists names as code, comma-separated.
func quoted(names []string) string {
	for i, n := range names {
		names[i] = "`" + n + "`"
	}
	return strings.Join(names, ", ")
}

// sortedKeys returns m's keys in order.
func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
