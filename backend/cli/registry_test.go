package cli

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"agentdesk/backend/registry/registrytest"
)

func TestRegistryCommandsInstallRunUpdateRollback(t *testing.T) {
	isolatedConfig(t)
	fixture := registrytest.New(t)
	t.Setenv("AGENTDESK_REGISTRY_URL", fixture.IndexURL())
	fixture.PublishDemo("1.0.0")

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

	fixture.PublishDemo("2.0.0")
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
