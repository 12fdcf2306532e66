// Package npmtest serves a fixture npm registry on 127.0.0.1 for the tests of what installs npm
// packages (backend/registry's installer, the presets, the CLI and the window's services), so
// no test reaches the real registry. Each package it serves has one tarball per version, its
// packument giving each tarball's sha512 integrity as npm's registry does; Tamper makes it
// serve other bytes than the integrity says, as a compromised mirror would.
//
// Nothing here is used outside tests. It imports nothing of agentdesk, so the registry
// package's own tests use it too.
package npmtest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// Package is one package to serve: Name ("@scope/name" or "name"), its command Bin, and the
// script each version's bin runs (Script(version); nil: a node script printing
// "npm fixture agent <version> <args>").
type Package struct {
	Name, Bin string
	Script    func(version string) string
}

// Server is the fixture registry, served until the test ends.
type Server struct {
	srv     *httptest.Server
	fetched atomic.Int32

	mu       sync.Mutex
	pkgs     map[string]Package
	tarballs map[string][]byte // by name@version
	tampered map[string]bool
}

// New serves pkg at versions (more with Publish).
func New(t testing.TB, pkg Package, versions ...string) *Server {
	t.Helper()
	s := &Server{pkgs: map[string]Package{}, tarballs: map[string][]byte{}, tampered: map[string]bool{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	s.Publish(t, pkg, versions...)
	return s
}

// Publish adds versions of pkg (another package, or more versions of one served).
func (s *Server) Publish(t testing.TB, pkg Package, versions ...string) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pkgs[pkg.Name] = pkg
	for _, v := range versions {
		script := "#!/usr/bin/env node\nconsole.log('npm fixture agent " + v + "', process.argv.slice(2).join(' '))\n"
		if pkg.Script != nil {
			script = pkg.Script(v)
		}
		pj, _ := json.Marshal(map[string]any{"name": pkg.Name, "version": v, "bin": map[string]string{pkg.Bin: "cli.js"}})
		s.tarballs[pkg.Name+"@"+v] = tarball(t, map[string]string{"package/package.json": string(pj), "package/cli.js": script})
	}
}

// Tamper makes the tarball of name@version served from now on differ from what its packument's
// integrity says.
func (s *Server) Tamper(name, version string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tampered[name+"@"+version] = true
}

// Integrity is the sha512 integrity of name@version's tarball, as the packument gives it.
func (s *Server) Integrity(name, version string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	sum := sha512.Sum512(s.tarballs[name+"@"+version])
	return "sha512-" + base64.StdEncoding.EncodeToString(sum[:])
}

// Fetched counts the tarballs downloaded.
func (s *Server) Fetched() int { return int(s.fetched.Load()) }

// URL is the registry's address, ending in "/".
func (s *Server) URL() string { return s.srv.URL + "/" }

// Flags are npm's flags for installing from this registry only, with a cache and an empty user
// config of their own under dir, so nothing of the machine's npm setup is used.
func (s *Server) Flags(t testing.TB, dir string) []string {
	t.Helper()
	rc := filepath.Join(dir, "npmrc")
	if err := os.WriteFile(rc, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	// No retries: a refused tarball (Tamper) fails at once instead of after npm's back-off.
	return []string{"--registry", s.URL(), "--cache", filepath.Join(dir, "cache"), "--userconfig", rc, "--prefer-online", "--fetch-retries", "0"}
}

// Setenv points every npm the test process starts at this registry (npm_config_* variables),
// for tests of code that builds its own Installer (the CLI, the window's services).
func (s *Server) Setenv(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	rc := filepath.Join(dir, "npmrc")
	if err := os.WriteFile(rc, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"registry": s.URL(), "cache": filepath.Join(dir, "cache"), "userconfig": rc,
		"prefer_online": "true", "fetch_retries": "0", "update_notifier": "false"} {
		t.Setenv("npm_config_"+k, v)
	}
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := strings.TrimPrefix(r.URL.Path, "/")
	if rest, ok := strings.CutPrefix(p, "tarballs/"); ok {
		spec := strings.TrimSuffix(rest, ".tgz")
		if b, ok := s.tarballs[spec]; ok {
			s.fetched.Add(1)
			if s.tampered[spec] {
				b = append(bytes.Clone(b), 0) // gzip ignores it; the integrity does not
			}
			w.Write(b)
			return
		}
		http.NotFound(w, r)
		return
	}
	name := strings.Replace(p, "%2f", "/", 1)
	name = strings.Replace(name, "%2F", "/", 1)
	pkg, ok := s.pkgs[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	versions := map[string]any{}
	latest := ""
	for spec, b := range s.tarballs {
		if n, v := splitSpec(spec); n == name {
			s512 := sha512.Sum512(b)
			s1 := sha1.Sum(b)
			versions[v] = map[string]any{"name": name, "version": v, "bin": map[string]string{pkg.Bin: "cli.js"},
				"dist": map[string]string{"tarball": s.srv.URL + "/tarballs/" + url.PathEscape(spec) + ".tgz",
					"integrity": "sha512-" + base64.StdEncoding.EncodeToString(s512[:]), "shasum": hex.EncodeToString(s1[:])}}
			if latest == "" || v > latest {
				latest = v
			}
		}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"name": name, "dist-tags": map[string]string{"latest": latest}, "versions": versions})
}

func splitSpec(spec string) (string, string) {
	at := strings.LastIndex(spec, "@")
	return spec[:at], spec[at+1:]
}

func tarball(t testing.TB, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for name, body := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o755, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(body))
	}
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

// DemoScript is a Package.Script whose bin starts the calling test binary as the Demo agent
// (`<test binary> demo-agent`, which the binary must answer as the app's own does), so an
// installed package speaks ACP.
func DemoScript(string) string {
	self, _ := filepath.Abs(os.Args[0])
	return "#!/bin/sh\nexec '" + self + "' demo-agent \"$@\"\n"
}
