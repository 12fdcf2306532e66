// Package registrytest serves a fixture ACP registry on 127.0.0.1 for the tests of what installs
// from it (the window's services, the CLI, the composition root). Its one agent, "demo-acp", is
// a real archive whose command starts the calling test binary as the Demo agent (`<test binary>
// demo-agent`), so the binary must answer that argument as the app's own does.
//
// Nothing here is used outside tests; it lives in a package of its own so that the tests of
// several packages publish the same registry instead of each building its own archive.
package registrytest

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

	"agentdesk/backend/registry"
)

// Server is a fixture registry over HTTP, served from a temp folder until the test ends.
type Server struct {
	t   testing.TB
	dir string
	srv *httptest.Server
}

// New starts an empty registry (its index is published by PublishDemo).
func New(t testing.TB) *Server {
	t.Helper()
	dir := t.TempDir()
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(srv.Close)
	return &Server{t: t, dir: dir, srv: srv}
}

// IndexURL is the registry's index, for AGENTDESK_REGISTRY_URL.
func (s *Server) IndexURL() string { return s.srv.URL + "/registry.json" }

// PublishDemo makes the index list only "demo-acp" at version, with a checksummed archive
// demo-<version>.tar.gz whose command is ./agent. Publishing again replaces the listing (an
// update); archives of earlier versions stay served.
func (s *Server) PublishDemo(version string) {
	t := s.t
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
	if err := os.WriteFile(filepath.Join(s.dir, name), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(buf.Bytes())
	index, _ := json.Marshal(registry.Index{Version: "1.0.0", Agents: []registry.Entry{{ID: "demo-acp", Name: "Demo ACP",
		Version: version, Description: "the Demo agent, installed from a fixture registry",
		Distribution: registry.Distribution{Binary: map[string]registry.Target{registry.PlatformKey(): {
			Archive: s.srv.URL + "/" + name, Cmd: "./agent", SHA256: hex.EncodeToString(sum[:])}}}}}})
	if err := os.WriteFile(filepath.Join(s.dir, "registry.json"), index, 0o644); err != nil {
		t.Fatal(err)
	}
}
