package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docs/security.md names, for every promise, the tests that prove it. These tests keep the page
// honest: a row whose test was renamed or deleted fails here, so a promise cannot outlive its
// proof, and every surface the page lists has at least one row.

var (
	// A proof is `TestName` (or Benchmark/Fuzz), optionally followed by "(backend/pkg)" naming
	// the folder its _test.go file is in; or `a/path` to a test file (vitest, e2e) that must exist.
	proofTest = regexp.MustCompile("`((?:Test|Benchmark|Fuzz)[A-Za-z0-9_]+)`(?:\\s*\\(([a-z0-9_./-]+)\\))?")
	proofFile = regexp.MustCompile("`([A-Za-z0-9_./-]+\\.(?:go|ts|mjs|sh))`")
)

// securityRows returns the page's table rows by section: the proved-by cell of each row.
func securityRows(t *testing.T) map[string][]string {
	t.Helper()
	b, err := os.ReadFile("docs/security.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string][]string{}
	section := ""
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "## "):
			section = strings.TrimPrefix(line, "## ")
			rows[section] = nil
		case strings.HasPrefix(line, "|") && section != "":
			cells := strings.Split(strings.Trim(line, "| "), " | ")
			if len(cells) < 2 || cells[0] == "promise" || strings.Trim(cells[0], "-") == "" {
				continue // the header and its rule
			}
			rows[section] = append(rows[section], cells[len(cells)-1])
		}
	}
	return rows
}

// testFuncs lists the test functions declared in the _test.go files beneath dir.
func testFuncs(t *testing.T, dir string) map[string]bool {
	t.Helper()
	decl := regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Fuzz)[A-Za-z0-9_]+)\(`)
	out := map[string]bool{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git" || d.Name() == "build") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range decl.FindAllStringSubmatch(string(b), -1) {
			out[m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestSecurityDocNamesRealTests(t *testing.T) {
	rows := securityRows(t)
	if len(rows) < 10 {
		t.Fatalf("docs/security.md has %d sections; expected one per surface", len(rows))
	}
	everywhere := testFuncs(t, ".")
	byDir := map[string]map[string]bool{".": everywhere}
	for section, cells := range rows {
		if len(cells) == 0 {
			t.Errorf("docs/security.md: section %q has no promise", section)
		}
		for _, cell := range cells {
			tests := proofTest.FindAllStringSubmatch(cell, -1)
			files := proofFile.FindAllStringSubmatch(cell, -1)
			if len(tests)+len(files) == 0 {
				t.Errorf("docs/security.md (%s): a promise names no test: %s", section, cell)
			}
			for _, m := range tests {
				dir := m[2]
				if dir == "" {
					dir = "."
				}
				if byDir[dir] == nil {
					if _, err := os.Stat(dir); err != nil {
						t.Errorf("docs/security.md (%s): %s: no folder %s", section, m[1], dir)
						continue
					}
					byDir[dir] = testFuncs(t, dir)
				}
				if !byDir[dir][m[1]] {
					t.Errorf("docs/security.md (%s): no test %s in %s", section, m[1], dir)
				}
			}
			for _, m := range files {
				if _, err := os.Stat(m[1]); err != nil {
					t.Errorf("docs/security.md (%s): no file %s", section, m[1])
				}
			}
		}
	}
}
