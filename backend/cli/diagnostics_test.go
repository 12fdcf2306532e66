package cli

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/agents"
)

// TestDiagnosticsBundleHoldsNoSecret (issue 31): `agentdesk diagnostics ID -o FILE` writes a
// .tar.gz with the bundle's files — the agent as it introduced itself, the protocol's messages,
// its stderr tail, the history's health — and a secret the agent echoed in its messages and on
// its stderr is in none of its bytes.
func TestDiagnosticsBundleHoldsNoSecret(t *testing.T) {
	isolatedConfig(t)
	self, err := filepath.Abs(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "leaky.json")
	os.WriteFile(script, []byte(strings.ReplaceAll(`[
 {"expect":"initialize"}, {"reply":{"protocolVersion":1,"agentCapabilities":{},"agentInfo":{"name":"leaky","version":"9.8.7"}}},
 {"expect":"session/new"}, {"reply":{"sessionId":"leak-1"}},
 {"expect":"session/prompt"},
 {"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Your key is SECRET"}}},
 {"stderr":"fatal: token SECRET rejected\n","exit":3}]`, "SECRET", echoSecret)), 0o600)
	cat, _ := agents.OpenCatalog(nil, nil)
	if _, _, err := cat.Save(agents.Custom{Name: "Leaky", Command: self, Args: []string{"demo-agent", "--script", script},
		Env: []agents.EnvVar{{Name: "LEAKY_TOKEN", Secret: true}}}, map[string]string{"LEAKY_TOKEN": echoSecret}); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := runCLI([]string{"--agent", "leaky", "--cwd", t.TempDir(), "print " + echoSecret}, strings.NewReader(""), &out, &errOut); code == ExitOK {
		t.Fatalf("run: exit 0; the agent was to die\n%s", errOut.String())
	}
	out.Reset()
	historyCLI(nil, nil, &out, &errOut)
	id := strings.Fields(out.String())[0]

	file := filepath.Join(t.TempDir(), "bug")
	out.Reset()
	errOut.Reset()
	if code := execute(strings.NewReader(""), &out, &errOut, "diagnostics", id[:8], "-o", file); code != ExitOK || !strings.Contains(out.String(), "bug.tar.gz") {
		t.Fatalf("diagnostics: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	files := untar(t, file+".tar.gz")
	for name, body := range files {
		if strings.Contains(body, echoSecret) || strings.Contains(body, echoSecret[3:]) {
			t.Errorf("%s holds the secret:\n%s", name, body)
		}
	}
	for name, want := range map[string]string{
		"versions.json":  `"version": "9.8.7"`,
		"journal.ndjson": `"method":"initialize"`,
		"stderr.txt":     "fatal: token " + agents.Mask + " rejected",
		"history.json":   `"quickCheck": "ok"`,
		"session.json":   `"agentId": "leaky"`,
		"README.txt":     "Attach this file to a bug report",
	} {
		if !strings.Contains(files[name], want) {
			t.Errorf("%s lacks %q:\n%s", name, want, files[name])
		}
	}
	var errs []json.RawMessage
	if err := json.Unmarshal([]byte(files["errors.json"]), &errs); err != nil || len(errs) == 0 {
		t.Errorf("errors.json: %v, %d errors:\n%s", err, len(errs), files["errors.json"])
	}
}

// untar reads the gzipped tar at path whole: each regular file's name and text.
func untar(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return files
		}
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		files[h.Name] = string(body)
	}
}
