package cli

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/registry"
)

// publishDemo serves, from a temp folder, a registry listing "demo-acp" at version: an archive
// whose command starts this test binary's Demo agent. It returns the index's address.
func publishDemo(t *testing.T, dir, base, version string) {
	t.Helper()
	self, err := filepath.Abs(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\nexec '" + self + "' demo-agent \"$@\"\n"
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	tw.WriteHeader(&tar.Header{Name: "agent", Mode: 0o755, Size: int64(len(script)), Typeflag: tar.TypeReg})
	tw.Write([]byte(script))
	tw.Close()
	gz.Close()
	name := "demo-" + version + ".tar.gz"
	if err := os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	index, _ := json.Marshal(registry.Index{Version: "1.0.0", Agents: []registry.Entry{{ID: "demo-acp", Name: "Demo ACP", Version: version,
		Description: "the Demo agent", Distribution: registry.Distribution{Binary: map[string]registry.Target{
			registry.PlatformKey(): {Archive: base + "/" + name, Cmd: "./agent"}}}}}})
	if err := os.WriteFile(filepath.Join(dir, "registry.json"), index, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRegistryCommandsInstallRunUpdateRollback(t *testing.T) {
	isolatedConfig(t)
	dir := t.TempDir()
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()
	t.Setenv("AGENTDESK_REGISTRY_URL", srv.URL+"/registry.json")
	publishDemo(t, dir, srv.URL, "1.0.0")

	reg := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := execute(strings.NewReader(""), &out, &errOut, append([]string{"registry"}, args...)...)
		return code, out.String(), errOut.String()
	}
	if code, out, errOut := reg("install", "demo-acp"); code != ExitOK || !strings.Contains(out, "Installed Demo ACP 1.0.0: agentdesk run --agent registry:demo-acp") ||
		!strings.Contains(errOut, "demo-acp: Downloading demo-1.0.0.tar.gz") {
		t.Fatalf("install: %d\n%s\n%s", code, out, errOut)
	}
	var out, errOut bytes.Buffer
	if code := runCLI([]string{"--agent", "registry:demo-acp", "--permissions", "allow", "--cwd", t.TempDir(), "hello"}, strings.NewReader(""), &out, &errOut); code != ExitOK {
		t.Fatalf("run the installed agent: %d\n%s\n%s", code, out.String(), errOut.String())
	}

	publishDemo(t, dir, srv.URL, "2.0.0")
	if code, out, _ := reg("update", "demo-acp"); code != ExitOK || !strings.Contains(out, "Updated Demo ACP to 2.0.0 (1.0.0 kept") {
		t.Fatalf("update: %d %s", code, out)
	}
	if code, out, _ := reg("list"); code != ExitOK || !strings.Contains(out, "demo-acp") || !strings.Contains(out, "2.0.0 (previous 1.0.0)") {
		t.Fatalf("list: %d\n%s", code, out)
	}
	if code, out, _ := reg("rollback", "demo-acp"); code != ExitOK || !strings.Contains(out, "Rolled Demo ACP back to 1.0.0") {
		t.Fatalf("rollback: %d %s", code, out)
	}
	if code, out, _ := reg("uninstall", "demo-acp"); code != ExitOK || !strings.Contains(out, "Uninstalled demo-acp") {
		t.Fatalf("uninstall: %d %s", code, out)
	}
	if code, _, errOut := reg("rollback", "demo-acp"); code != ExitFailed || !strings.Contains(errOut, "no previous version") {
		t.Fatalf("rollback after uninstall: %d %s", code, errOut)
	}
}

func TestRegistryListOfflineShowsTheSnapshot(t *testing.T) {
	isolatedConfig(t)
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close() // nothing listens there: the registry cannot be reached
	t.Setenv("AGENTDESK_REGISTRY_URL", srv.URL+"/registry.json")
	var out, errOut bytes.Buffer
	if code := execute(strings.NewReader(""), &out, &errOut, "registry", "list"); code != ExitOK ||
		!strings.Contains(errOut.String(), "Offline: showing the snapshot of") || !strings.Contains(out.String(), "claude-acp") {
		t.Fatalf("offline list: %d\n%s\n%s", code, out.String(), errOut.String())
	}
}
