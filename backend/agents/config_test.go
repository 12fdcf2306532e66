package agents

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestConfigRoundTripIsPrivateAndAtomic(t *testing.T) {
	f := &ConfigFile{Path: filepath.Join(t.TempDir(), "agentdesk", "agents.json")}
	if c, err := f.Load(); err != nil || len(c.Agents) != 0 {
		t.Fatalf("missing file: %+v, %v; want empty and no error", c, err)
	}
	want := Config{Agents: []Custom{{ID: "acme", Name: "Acme", Command: "acme-acp", Args: []string{"--acp", "a b"},
		Env: []EnvVar{{Name: "ACME_MODE", Value: "fast"}, {Name: "ACME_KEY", Secret: true}}, Folder: "/src"}},
		LoginSecrets: map[string][]string{"gemini": {"GEMINI_API_KEY"}}}
	if aside, err := f.Save(want); err != nil || aside != "" {
		t.Fatalf("Save: %q, %v", aside, err)
	}
	got, err := f.Load()
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Load after Save:\n got %+v, %v\nwant %+v", got, err, want)
	}
	st, _ := os.Stat(f.Path)
	dir, _ := os.Stat(filepath.Dir(f.Path))
	if st.Mode().Perm() != 0o600 || dir.Mode().Perm() != 0o700 {
		t.Fatalf("modes: file %v, folder %v; want 0600 and 0700", st.Mode().Perm(), dir.Mode().Perm())
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(f.Path), ".*tmp*")); len(left) != 0 {
		t.Fatalf("temp files left behind: %v", left)
	}
}

func TestAnUnreadableConfigIsNamedAndKeptAside(t *testing.T) {
	f := &ConfigFile{Path: filepath.Join(t.TempDir(), "agents.json"), now: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }}
	broken := "{\"agents\": [ {\"id\": \"x\", // a comment\n"
	if err := os.WriteFile(f.Path, []byte(broken), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := f.Load()
	if err == nil || !strings.Contains(err.Error(), f.Path) || !strings.Contains(err.Error(), "not valid") {
		t.Fatalf("Load of a malformed file: %v; want an error naming %s", err, f.Path)
	}
	aside, err := f.Save(Config{Agents: []Custom{{ID: "new", Name: "New", Command: "new-acp"}}})
	if err != nil || aside != f.Path+".unreadable-20260102-030405" {
		t.Fatalf("Save over it: aside %q, %v", aside, err)
	}
	if kept, _ := os.ReadFile(aside); string(kept) != broken {
		t.Fatalf("the copy aside holds %q, want the user's file", kept)
	}
	if c, err := f.Load(); err != nil || c.Agents[0].ID != "new" {
		t.Fatalf("after Save: %+v, %v", c, err)
	}
}

func TestInvalidAgentsAreRefusedWithAReason(t *testing.T) {
	for _, tc := range []struct {
		c    Custom
		want string
	}{
		{Custom{ID: "a", Command: "x"}, "name"},
		{Custom{ID: "A B", Name: "n", Command: "x"}, "lower-case"},
		{Custom{ID: "a", Name: "n"}, "command"},
		{Custom{ID: "a", Name: "n", Command: "bin/x"}, "absolute path"},
		{Custom{ID: "a", Name: "n", Command: "x", Env: []EnvVar{{Name: "1X"}}}, "not an environment variable name"},
		{Custom{ID: "a", Name: "n", Command: "x", Env: []EnvVar{{Name: "X"}, {Name: "X"}}}, "twice"},
		{Custom{ID: "a", Name: "n", Command: "x", Folder: "rel"}, "default folder"},
	} {
		if err := tc.c.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.c, err, tc.want)
		}
	}
	if err := (Custom{ID: "ok-1", Name: "Ok", Command: "~/bin/agent", Folder: "~/src"}).Validate(); err != nil {
		t.Errorf("a valid agent: %v", err)
	}
}

func TestCustomAgentsResolveOnTheirPath(t *testing.T) {
	bin := binDir(t, "acme-acp")
	base := []string{"PATH=/nowhere", "HOME=/home/me", "ACME_MODE=slow"}
	c := Custom{ID: "acme", Name: "Acme", Command: "acme-acp", Env: []EnvVar{{Name: "PATH", Value: bin}, {Name: "ACME_MODE", Value: "fast"}, {Name: "ACME_KEY", Secret: true}}}
	a := c.Resolve(base)
	if !a.Available || a.Command != filepath.Join(bin, "acme-acp") || !a.Custom {
		t.Fatalf("resolved %+v; want available at %s", a, bin)
	}
	if Getenv(a.Env, "ACME_MODE") != "fast" || Getenv(a.Env, "HOME") != "/home/me" || strings.Contains(strings.Join(a.Env, " "), "ACME_KEY") {
		t.Fatalf("env %v: want the plain variables over the base and no secret", a.Env)
	}
	c.Env = nil
	if a := c.Resolve(base); a.Available || !strings.Contains(a.Reason, "not found on PATH") {
		t.Fatalf("missing command: %+v", a)
	}
}

func TestArgsSplitWithoutExpansionAndJoinBack(t *testing.T) {
	args, err := SplitArgs(`--acp "two words" $HOME 'it''s'`)
	want := []string{"--acp", "two words", "$HOME", "its"}
	if err != nil || !reflect.DeepEqual(args, want) {
		t.Fatalf("SplitArgs: %q, %v; want %q", args, err, want)
	}
	again, err := SplitArgs(JoinArgs(args))
	if err != nil || !reflect.DeepEqual(again, args) {
		t.Fatalf("JoinArgs does not split back: %q → %q (%v)", JoinArgs(args), again, err)
	}
	if _, err := SplitArgs(`"unclosed`); err == nil {
		t.Fatal("an unclosed quote was accepted")
	}
	if got := CommandLine([]string{"MODE=a b"}, "/usr/bin/opencode", []string{"auth", "login"}); got != "MODE='a b' /usr/bin/opencode auth login" {
		t.Fatalf("CommandLine: %s", got)
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{"My Agent!": "my-agent", "  Ünïcode  ": "n-code", "!!!": "agent", "Qwen 2.5": "qwen-2-5"} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}
