package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"agentdesk/backend/acp"
)

// TestOpenInEditor: a file of the session opens in $VISUAL at its line, as separate arguments;
// a path outside the session's folders (directly, with .., or through a symlink) and a folder
// are refused, and nothing starts.
func TestOpenInEditor(t *testing.T) {
	t.Setenv("AGENTDESK_DB", t.TempDir()+"/history.db")
	t.Setenv("AGENTDESK_DEMO_PACE", "0s")
	t.Setenv("VISUAL", "code --wait")
	proj, outside := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(proj, "main.go"), []byte("package main\n"), 0o644)
	os.WriteFile(filepath.Join(outside, "secret"), []byte("x"), 0o644)
	os.Symlink(filepath.Join(outside, "secret"), filepath.Join(proj, "link"))
	a, rec := newTestApp(t)
	defer a.shutdown(context.Background())
	var started [][]string
	a.desktop.startEditor = func(c *exec.Cmd) error { started = append(started, c.Args); return nil }
	info, err := a.sessions.StartSession("demo", proj, nil, false, false)
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, func(e acp.Event) bool { return e.Kind == acp.EventState && e.State == acp.StateIdle })

	if err := a.desktop.OpenInEditor(info.SessionID, "main.go", 12); err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(filepath.Join(proj, "main.go"))
	if want := [][]string{{"code", "--wait", "--goto", real + ":12"}}; !reflect.DeepEqual(started, want) {
		t.Fatalf("started %q, want %q", started, want)
	}
	for path, want := range map[string]string{
		filepath.Join(outside, "secret"):           "outside the session's folders",
		"../" + filepath.Base(outside) + "/secret": "outside the session's folders",
		"link": "outside the session's folders",
		".":    "is not a file",
		"nope": "does not exist",
	} {
		if err := a.desktop.OpenInEditor(info.SessionID, path, 1); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("open %q: %v, want %q", path, err, want)
		}
	}
	if len(started) != 1 {
		t.Errorf("refused paths started %q", started[1:])
	}
}
