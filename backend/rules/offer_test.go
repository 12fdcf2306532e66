package rules

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestOffer: the rules a card offers name this agent and project, and each matches the request
// it was offered from; a path outside the folder or a chained command offers no narrower rule.
func TestOffer(t *testing.T) {
	proj := t.TempDir()
	for _, c := range []struct {
		name string
		req  Request
		want []string // scope=glob-or-command
	}{
		{"a read of a file in a folder", Request{Kind: "read", Paths: []string{"src/app/main.go"}},
			[]string{"kind=", "folder=src/app/**"}},
		{"two files of one folder", Request{Kind: "edit", Paths: []string{"src/a.go", filepath.Join(proj, "src", "b", "c.go")}},
			[]string{"kind=", "folder=src/**"}},
		{"a file at the top", Request{Kind: "read", Paths: []string{"README.md"}}, []string{"kind="}},
		{"a file outside the project", Request{Kind: "read", Paths: []string{"/etc/passwd"}}, []string{"kind="}},
		{"glob characters in a folder name", Request{Kind: "read", Paths: []string{"we[ir]d/*x/a"}},
			[]string{"kind=", `folder=we\[ir\]d/\*x/**`}},
		{"a command", Request{Kind: "execute", Command: "go test ./... -run X"}, []string{"kind=", "command=go test"}},
		{"a script runner", Request{Kind: "execute", Command: "npm run build --watch"}, []string{"kind=", "command=npm run build"}},
		{"options end the prefix", Request{Kind: "execute", Command: "rm -rf build"}, []string{"kind=", "command=rm"}},
		{"a chained command", Request{Kind: "execute", Command: "go test && rm -rf ~"}, []string{"kind="}},
		{"no kind", Request{Paths: []string{"src/a.go"}}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.req.AgentID, c.req.Folders = "claude", []string{proj}
			var got []string
			for _, o := range Offer(c.req) {
				r := o.Rule
				if r.AgentID != "claude" || r.Folder != proj || r.Kind != c.req.Kind {
					t.Errorf("offered %+v: not this agent, project and kind", r)
				}
				got = append(got, o.Scope+"="+r.Path+r.Command)
				r.Decision, r.ID = Allow, o.Scope
				if err := r.Validate(); err != nil {
					t.Errorf("offered an invalid rule: %v", err)
				}
				// An allow never answers what reaches outside or cannot be placed: the hub offers
				// only the rules that match.
				if m := Match([]Rule{r}, c.req); m == nil && !strings.Contains(c.name, "outside") && !strings.Contains(c.name, "chained") {
					t.Errorf("the %s rule does not match the request it was offered from", o.Scope)
				}
			}
			if strings.Join(got, " ") != strings.Join(c.want, " ") {
				t.Errorf("offered %q, want %q", got, c.want)
			}
		})
	}
}

// TestOfferInAdditionalFolder: a request whose paths are in an additional folder of the session
// offers rules for that folder, which match it; the working folder's would not.
func TestOfferInAdditionalFolder(t *testing.T) {
	proj, extra := t.TempDir(), t.TempDir()
	req := Request{AgentID: "claude", Folders: []string{proj, extra}, Kind: "edit", Paths: []string{filepath.Join(extra, "src", "a.go")}}
	offered := Offer(req)
	if len(offered) != 2 {
		t.Fatalf("offered %+v, want the kind and the folder", offered)
	}
	for _, o := range offered {
		r := o.Rule
		r.Decision = Allow
		if r.Folder != extra || Match([]Rule{r}, req) == nil {
			t.Errorf("offered %+v: not for the additional folder, or it does not match", r)
		}
	}
}

func TestDescribe(t *testing.T) {
	for _, c := range []struct {
		r    Rule
		want string
	}{
		{Rule{AgentID: "claude", Folder: "/home/ana/src/app", Kind: "read"}, "reads in ~/src/app for Claude Code"},
		{Rule{Folder: "/srv/app", Kind: "execute", Command: "go test"}, "commands starting `go test` in /srv/app for any agent"},
		{Rule{AgentID: "claude", Kind: "edit", Path: "src/**"}, "edits of src/** in any project for Claude Code"},
		{Rule{Tool: "Fetch page"}, "every tool call by “Fetch page” in any project for any agent"},
	} {
		if got := Describe(c.r, map[string]string{"claude": "Claude Code"}[c.r.AgentID], "/home/ana"); got != c.want {
			t.Errorf("Describe(%+v) = %q, want %q", c.r, got, c.want)
		}
	}
}

func TestImport(t *testing.T) {
	rs := []Rule{{ID: "a", Kind: "read", Decision: Allow}, {Folder: "/p", Command: "make", Decision: Reject}}
	back, err := Import(Export(rs))
	if err != nil || len(back) != 2 || back[1] != rs[1] {
		t.Fatalf("round trip %+v, %v", back, err)
	}
	for data, want := range map[string]string{
		`{"version":1,"rules":[{"decision":"maybe"}]}`:                    "rule 1 of the file",
		`{"version":1,"rules":[{"folder":"rel/dir","decision":"allow"}]}`: "must be an absolute path",
		`{"version":1,"rules":[{"path":"../x","decision":"allow"}]}`:      "cannot climb out",
		`{"version":2,"rules":[]}`:                                        "version 2",
		`{"version":1,`:                                                   "not a rules file",
	} {
		if _, err := Import([]byte(data)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Import(%s) = %v, want an error with %q", data, err, want)
		}
	}
}
