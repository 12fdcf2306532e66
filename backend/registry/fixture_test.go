package registry

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// tarEntry is one entry of a fixture archive.
type tarEntry struct {
	name, body, link string
	typ              byte
	mode             int64
}

// tarGz builds a .tar.gz archive of entries.
func tarGz(t *testing.T, entries []tarEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Typeflag: e.typ, Mode: e.mode, Linkname: e.link, Size: int64(len(e.body))}
		if h.Typeflag == 0 {
			h.Typeflag = tar.TypeReg
		}
		if h.Typeflag != tar.TypeReg {
			h.Size = 0
		}
		if h.Mode == 0 {
			h.Mode = 0o755
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			if _, err := tw.Write([]byte(e.body)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// agentScript is a tiny "agent" for an archive: a shell script that says its version.
func agentScript(version string) string { return "#!/bin/sh\necho fixture-agent " + version + "\n" }

// fixtureRegistry serves a temp folder over HTTP, as the registry's CDN and the release
// downloads would: registry.json and archives written into it by the test.
type fixtureRegistry struct {
	dir string
	srv *httptest.Server
}

func newFixtureRegistry(t *testing.T) *fixtureRegistry {
	t.Helper()
	f := &fixtureRegistry{dir: t.TempDir()}
	f.srv = httptest.NewServer(http.FileServer(http.Dir(f.dir)))
	t.Cleanup(f.srv.Close)
	return f
}

// put writes a file to serve, returning its address.
func (f *fixtureRegistry) put(t *testing.T, name string, data []byte) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(f.dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return f.srv.URL + "/" + name
}

// binaryEntry publishes a tar.gz holding bin/agent (a script saying version) and returns the
// registry entry for it, with the archive's sha256 unless noSum.
func (f *fixtureRegistry) binaryEntry(t *testing.T, version string, noSum bool) Entry {
	t.Helper()
	archive := tarGz(t, []tarEntry{{name: "pkg/", typ: tar.TypeDir}, {name: "pkg/bin/agent", body: agentScript(version)},
		{name: "pkg/README", body: "fixture", mode: 0o644}})
	url := f.put(t, "fixture-"+version+".tar.gz", archive)
	target := Target{Archive: url, Cmd: "./pkg/bin/agent", Args: []string{"acp"}, Env: map[string]string{"FIXTURE": "1"}}
	if !noSum {
		target.SHA256 = sum(archive)
	}
	return Entry{ID: "fixture", Name: "Fixture Agent", Version: version, Description: "a test agent",
		Distribution: Distribution{Binary: map[string]Target{"linux-x86_64": target}}}
}

// index publishes registry.json listing entries.
func (f *fixtureRegistry) index(t *testing.T, entries ...Entry) string {
	t.Helper()
	raw, err := json.Marshal(map[string]any{"version": "1.0.0", "agents": entries, "extensions": []any{}})
	if err != nil {
		t.Fatal(err)
	}
	return f.put(t, "registry.json", raw)
}

func newInstaller(t *testing.T) *Installer {
	return &Installer{Root: filepath.Join(t.TempDir(), "agents"), Platform: "linux-x86_64"}
}
