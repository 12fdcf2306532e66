//go:build unix

package fsys_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/fsys"
	"agentdesk/backend/acp/schema"
)

func TestFolderReadsLinesInside(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(path, []byte("one\ntwo\nthree\nfour\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := fsys.NewFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	two, one := 2, 1
	for _, c := range []struct {
		line, limit *int
		want        string
	}{
		{nil, nil, "one\ntwo\nthree\nfour\n"},
		{&two, nil, "two\nthree\nfour\n"},
		{&two, &two, "two\nthree\n"},
		{nil, &one, "one\n"},
	} {
		res, err := f.ReadTextFile(acptest.Params(t, schema.ReadTextFileParams{Path: path, Line: c.line, Limit: c.limit}))
		if err != nil {
			t.Fatal(err)
		}
		if got := res.(map[string]string)["content"]; got != c.want {
			t.Errorf("line %v limit %v: %q, want %q", c.line, c.limit, got, c.want)
		}
	}
	_, err = f.ReadTextFile(acptest.Params(t, schema.ReadTextFileParams{Path: filepath.Join(dir, "missing.txt")}))
	if acptest.RPCCode(err) != schema.CodeResourceNotFound {
		t.Fatalf("missing file: %v, want -32002", err)
	}
}

func TestFolderRefusesPathsOutside(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "project")
	outside := filepath.Join(root, "secret.txt")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(outside, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A symlink inside the folder that points out of it must not be a way out.
	if err := os.Symlink(root, filepath.Join(dir, "escape")); err != nil {
		t.Fatal(err)
	}
	f, err := fsys.NewFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{outside, filepath.Join(dir, "..", "secret.txt"), filepath.Join(dir, "escape", "secret.txt"), "relative.txt"} {
		_, err := f.ReadTextFile(acptest.Params(t, schema.ReadTextFileParams{Path: p}))
		if acptest.RPCCode(err) != schema.CodeInvalidParams || !(strings.Contains(err.Error(), "outside the session folder") || strings.Contains(err.Error(), "not absolute")) {
			t.Errorf("read %s: %v, want a refusal", p, err)
		}
		_, err = f.WriteTextFile(acptest.Params(t, schema.WriteTextFileParams{Path: p, Content: "x"}))
		if acptest.RPCCode(err) != schema.CodeInvalidParams {
			t.Errorf("write %s: %v, want a refusal", p, err)
		}
	}
	if data, _ := os.ReadFile(outside); string(data) != "secret" {
		t.Fatalf("the file outside was changed: %q", data)
	}
}

func TestFolderWritesCreatingParentsAndKeepingMode(t *testing.T) {
	dir := t.TempDir()
	f, err := fsys.NewFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	nested := filepath.Join(dir, "a", "b", "new.txt")
	if _, err := f.WriteTextFile(acptest.Params(t, schema.WriteTextFileParams{Path: nested, Content: "hello"})); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(nested); err != nil || string(data) != "hello" {
		t.Fatalf("new file: %q, %v", data, err)
	}
	script := filepath.Join(dir, "run.sh")
	if err := os.WriteFile(script, []byte("old"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteTextFile(acptest.Params(t, schema.WriteTextFileParams{Path: script, Content: "new"})); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(script)
	if err != nil || st.Mode().Perm() != 0o755 {
		t.Fatalf("mode after write: %v, %v; want 0755 kept", st.Mode(), err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".agentdesk-") {
			t.Fatalf("temp file %s left behind", e.Name())
		}
	}
}

// walking runs test where the kernel has no openat2, so that every open walks name by name.
func walking(t *testing.T, test func(*testing.T)) {
	fsys.WithoutOpenat2(t)
	test(t)
}

// TestFolderFollowsLinksInside: links that stay inside the folder work, relative or absolute, to
// a file or a folder; a write through a link to a file replaces the file and keeps the link.
func TestFolderFollowsLinksInside(t *testing.T) { followsLinksInside(t) }

// TestFolderFollowsLinksInsideWithoutOpenat2: the same when every open walks.
func TestFolderFollowsLinksInsideWithoutOpenat2(t *testing.T) { walking(t, followsLinksInside) }

func followsLinksInside(t *testing.T) {
	dir := t.TempDir()
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	must(t, os.MkdirAll(filepath.Join(dir, "src"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "src", "a.txt"), []byte("a"), 0o600))
	must(t, os.Symlink("src/a.txt", filepath.Join(dir, "rel")))
	must(t, os.Symlink(filepath.Join(real, "src", "a.txt"), filepath.Join(dir, "abs")))
	must(t, os.Symlink(filepath.Join(real, "src"), filepath.Join(dir, "absdir")))
	must(t, os.Symlink("../src", filepath.Join(dir, "src", "loop")))
	f, err := fsys.NewFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for i, p := range []string{"rel", "abs", "absdir/a.txt", "src/loop/loop/a.txt"} {
		path := filepath.Join(dir, p)
		content := fmt.Sprint("written ", i)
		if _, err := f.WriteTextFile(acptest.Params(t, schema.WriteTextFileParams{Path: path, Content: content})); err != nil {
			t.Fatalf("write %s: %v", p, err)
		}
		res, err := f.ReadTextFile(acptest.Params(t, schema.ReadTextFileParams{Path: path}))
		if err != nil || res.(map[string]string)["content"] != content {
			t.Fatalf("read %s: %v, %v", p, res, err)
		}
		if data, _ := os.ReadFile(filepath.Join(dir, "src", "a.txt")); string(data) != content {
			t.Fatalf("after writing %s, src/a.txt holds %q", p, data)
		}
	}
	for _, link := range []string{"rel", "abs"} {
		if st, err := os.Lstat(filepath.Join(dir, link)); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("the link %s was replaced: %v", link, err)
		}
	}
	if st, _ := os.Stat(filepath.Join(dir, "src", "a.txt")); st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want 0600 kept", st.Mode())
	}
}
