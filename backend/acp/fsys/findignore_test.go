package fsys_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/acp/fsys"
)

// writeTree writes files (relative path → content) beneath dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(body), 0o644))
	}
}

// isolatedHome points HOME and XDG_CONFIG_HOME at empty folders so that the person's own git
// configuration does not reach the test; it returns the XDG folder.
func isolatedHome(t *testing.T) string {
	t.Setenv("HOME", t.TempDir())
	xdg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", xdg)
	return xdg
}

// listed is every path FindFiles lists for an empty query.
func listed(t *testing.T, dir string) string {
	t.Helper()
	f, err := fsys.NewFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	for _, ff := range f.FindFiles("", 1000) {
		out = append(out, ff.Path)
	}
	return strings.Join(out, " ")
}

func TestFindFilesFollowsIgnoreFiles(t *testing.T) {
	xdg := isolatedHome(t)
	dir := t.TempDir()
	writeTree(t, xdg, map[string]string{"git/ignore": "*.swp\n"})
	writeTree(t, dir, map[string]string{
		".git/info/exclude":        "# comment\nlocal-only.txt\n",
		".gitignore":               "*.log\nbuild/\n/top.txt\n",
		".ignore":                  "scratch/\n",
		"a.txt":                    "",
		"top.txt":                  "", // anchored to the top: ignored here...
		"sub/top.txt":              "", // ...not below
		"x.log":                    "",
		"x.swp":                    "", // global excludes
		"local-only.txt":           "", // info/exclude
		"build/out.txt":            "", // a folder pattern hides the folder
		"build.txt":                "", // but not a file of that name
		"scratch/note.txt":         "", // .ignore
		"sub/.gitignore":           "secret.txt\n!keep.log\ndocs/*.md\n",
		"sub/secret.txt":           "",
		"sub/keep.log":             "", // re-included below sub only
		"sub/docs/a.md":            "", // a pattern with a slash anchors to its folder
		"sub/docs/deeper/b.md":     "",
		"other/secret.txt":         "", // sub's rule does not reach here
		"other/docs/a.md":          "",
		".github/workflows/ci.yml": "", // hidden folders not ignored are searched
		"node_modules/pkg/i.js":    "", // governed by .gitignore, which does not ignore it
	})
	want := ".gitignore .ignore a.txt build.txt .github/workflows/ci.yml node_modules/pkg/i.js other/secret.txt sub/.gitignore sub/keep.log sub/top.txt other/docs/a.md sub/docs/deeper/b.md"
	if got := listed(t, dir); !sameSet(got, want) {
		t.Fatalf("listed %q\nwant   %q", got, want)
	}
}

// sameSet compares space-separated lists ignoring order.
func sameSet(a, b string) bool {
	fa, fb := strings.Fields(a), strings.Fields(b)
	if len(fa) != len(fb) {
		return false
	}
	m := map[string]int{}
	for _, s := range fa {
		m[s]++
	}
	for _, s := range fb {
		if m[s]--; m[s] < 0 {
			return false
		}
	}
	return true
}

func TestFindFilesGlobalExcludesFromXDGConfig(t *testing.T) {
	xdg := isolatedHome(t)
	rules := filepath.Join(t.TempDir(), "my-ignores")
	writeTree(t, filepath.Dir(rules), map[string]string{filepath.Base(rules): "*.bak\n"})
	writeTree(t, xdg, map[string]string{"git/config": "[core]\n\texcludesFile = " + rules + "\n", "git/ignore": "*.txt\n"})
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.bak": "", "a.txt": "", "a.go": ""})
	// core.excludesFile wins over the default file, which is then not read.
	if got := listed(t, dir); got != "a.go a.txt" {
		t.Fatalf("listed %q", got)
	}
}

func TestFindFilesHeavyFoldersWithoutIgnoreFiles(t *testing.T) {
	isolatedHome(t)
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"node_modules/x.js": "", ".cache/y": "", ".github/ci.yml": "", "src/a.go": ""})
	if got := listed(t, dir); got != ".github/ci.yml src/a.go" {
		t.Fatalf("listed %q", got)
	}
}

func TestFindFilesInheritsRulesAboveTheFolder(t *testing.T) {
	isolatedHome(t)
	repo := t.TempDir()
	writeTree(t, repo, map[string]string{
		".git/info/exclude": "*.tmp\n",
		".gitignore":        "app/gen/\nscratch/\n",
		"app/.ignore":       "*.out\n",
		"app/gen/g.go":      "",
		"app/web/x.out":     "",
		"app/web/x.tmp":     "",
		"app/web/x.go":      "",
		"scratch/s.txt":     "",
	})
	if got := listed(t, filepath.Join(repo, "app")); got != ".ignore web/x.go" {
		t.Fatalf("in a repository's subfolder, listed %q", got)
	}
	// A folder its repository ignores was opened on purpose: its files are listed.
	if got := listed(t, filepath.Join(repo, "scratch")); got != "s.txt" {
		t.Fatalf("in an ignored folder, listed %q", got)
	}
}

func TestFindFilesDoesNotWalkIgnoredFolders(t *testing.T) {
	isolatedHome(t)
	dir := t.TempDir()
	files := map[string]string{".gitignore": "aaa/\n", "zzz/target.txt": ""}
	for i := range 30 {
		files[filepath.Join("aaa", strings.Repeat("f", i+1))] = ""
	}
	writeTree(t, dir, files)
	fsys.SetFindBudget(t, 10) // root's 3 entries and zzz's 1 fit; aaa's 30 would not
	if got := listed(t, dir); got != ".gitignore zzz/target.txt" {
		t.Fatalf("listed %q", got)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
