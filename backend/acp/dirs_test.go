package acp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/fsys"
	"agentdesk/backend/acp/schema"
)

// The additional folders go to an agent that takes them (in session/new and on load), and to
// one that does not they are not sent, with one notice saying so.
func TestAdditionalDirectoriesSentOnlyWhenTaken(t *testing.T) {
	dirs := []string{"/src/lib", "/docs"}
	set := func(c *acp.Config) { c.Dirs = dirs }
	sent := func(raw json.RawMessage) string {
		var p struct {
			Dirs []string `json:"additionalDirectories"`
		}
		_ = json.Unmarshal(raw, &p)
		return strings.Join(p.Dirs, " ")
	}
	raw, s := openParams(t, `{"sessionCapabilities":{"additionalDirectories":{}}}`, nil, "session/new", set)
	if sent(raw) != "/src/lib /docs" {
		t.Fatalf("session/new params %s, want both folders", raw)
	}
	if got := s.Snapshot().Dirs; strings.Join(got, " ") != "/src/lib /docs" {
		t.Fatalf("snapshot dirs %q", got)
	}
	raw, _ = openParams(t, `{"loadSession":true,"sessionCapabilities":{"additionalDirectories":{}}}`,
		&acp.Seed{AgentSessionID: "m1", Title: "t"}, "session/load", set)
	if sent(raw) != "/src/lib /docs" {
		t.Fatalf("session/load params %s, want both folders", raw)
	}
	raw, s = openParams(t, `{}`, nil, "session/new", set)
	if strings.Contains(string(raw), "additionalDirectories") {
		t.Fatalf("sent to an agent that does not take them: %s", raw)
	}
	var notices int
	for _, e := range s.Snapshot().Entries {
		if e.Kind == acp.KindNotice && strings.Contains(e.Notice.Description, "/src/lib, /docs") {
			notices++
		}
	}
	if notices != 1 {
		t.Fatalf("%d notices naming the folders, want 1: %+v", notices, s.Snapshot().Entries)
	}
}

// fs/* requests are served in every folder of the session and refused outside all of them,
// naming them; the file picker lists the other folders' files by absolute path.
func TestFoldersConfineToEveryFolder(t *testing.T) {
	cwd, lib, other := t.TempDir(), t.TempDir(), t.TempDir()
	for path, text := range map[string]string{filepath.Join(cwd, "main.go"): "main", filepath.Join(lib, "lib.go"): "lib",
		filepath.Join(other, "secret.txt"): "no"} {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	f, err := fsys.NewFolders(cwd, []string{lib})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for path, want := range map[string]string{filepath.Join(cwd, "main.go"): "main", filepath.Join(lib, "lib.go"): "lib"} {
		res, err := f.ReadTextFile(acptest.Params(t, schema.ReadTextFileParams{Path: path}))
		if err != nil || res.(map[string]string)["content"] != want {
			t.Fatalf("read %s: %v %v", path, res, err)
		}
	}
	if _, err := f.WriteTextFile(acptest.Params(t, schema.WriteTextFileParams{Path: filepath.Join(lib, "new", "x.go"), Content: "x"})); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(lib, "new", "x.go")); err != nil || string(b) != "x" {
		t.Fatalf("write in the additional folder: %q %v", b, err)
	}
	_, err = f.ReadTextFile(acptest.Params(t, schema.ReadTextFileParams{Path: filepath.Join(other, "secret.txt")}))
	if acptest.RPCCode(err) != schema.CodeInvalidParams || !strings.Contains(err.Error(), "outside the session's folders") || !strings.Contains(err.Error(), lib) {
		t.Fatalf("read outside every folder: %v", err)
	}
	_, err = f.ReadTextFile(acptest.Params(t, schema.ReadTextFileParams{Path: filepath.Join(lib, "..", filepath.Base(other), "secret.txt")}))
	if acptest.RPCCode(err) != schema.CodeInvalidParams {
		t.Fatalf("a .. walk out of the additional folder: %v", err)
	}
	files := f.FindFiles("", 10)
	var paths []string
	for _, ff := range files {
		paths = append(paths, ff.Path)
	}
	got := strings.Join(paths, " ")
	if !strings.Contains(got, "main.go") || !strings.Contains(got, filepath.Join(lib, "lib.go")) || strings.Contains(got, "secret") {
		t.Fatalf("file picker lists %q", got)
	}
}
