package registry

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha1"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// npmFixture is a local npm registry: the packument of @fixture/agent and its tarballs, one
// per version, each a node script that prints its version.
type npmFixture struct {
	srv      *httptest.Server
	tarballs map[string][]byte
	fetched  atomic.Int32 // tarball downloads
}

func newNpmFixture(t *testing.T, versions ...string) *npmFixture {
	t.Helper()
	f := &npmFixture{tarballs: map[string][]byte{}}
	for _, v := range versions {
		pj, _ := json.Marshal(map[string]any{"name": "@fixture/agent", "version": v, "bin": map[string]string{"fixture-agent": "cli.js"}})
		f.tarballs[v] = npmTarball(t, map[string]string{"package/package.json": string(pj),
			"package/cli.js": "#!/usr/bin/env node\nconsole.log('npm fixture agent " + v + "', process.argv.slice(2).join(' '))\n"})
	}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *npmFixture) serve(w http.ResponseWriter, r *http.Request) {
	p, _ := strings.CutPrefix(r.URL.Path, "/")
	if strings.HasPrefix(p, "tarballs/") {
		v := strings.TrimSuffix(strings.TrimPrefix(p, "tarballs/agent-"), ".tgz")
		if b, ok := f.tarballs[v]; ok {
			f.fetched.Add(1)
			w.Write(b)
			return
		}
	}
	if p != "@fixture/agent" {
		http.NotFound(w, r)
		return
	}
	versions := map[string]any{}
	latest := ""
	for v, b := range f.tarballs {
		s512 := sha512.Sum512(b)
		s1 := sha1.Sum(b)
		versions[v] = map[string]any{"name": "@fixture/agent", "version": v, "bin": map[string]string{"fixture-agent": "cli.js"},
			"dist": map[string]string{"tarball": f.srv.URL + "/tarballs/agent-" + v + ".tgz",
				"integrity": "sha512-" + base64.StdEncoding.EncodeToString(s512[:]), "shasum": hex.EncodeToString(s1[:])}}
		latest = v
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"name": "@fixture/agent", "dist-tags": map[string]string{"latest": latest}, "versions": versions})
}

func npmTarball(t *testing.T, files map[string]string) []byte {
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

// npmInstaller is an Installer running the real npm against the fixture only: its own cache
// and an empty user config, so nothing of the machine's npm setup (or the network) is used.
func npmInstaller(t *testing.T, f *npmFixture) *Installer {
	t.Helper()
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is not installed")
	}
	tmp := t.TempDir()
	rc := filepath.Join(tmp, "npmrc")
	if err := os.WriteFile(rc, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	inst := newInstaller(t)
	inst.NPMFlags = []string{"--registry", f.srv.URL + "/", "--cache", filepath.Join(tmp, "cache"), "--userconfig", rc, "--prefer-online"}
	inst.Env = append(os.Environ(), "npm_config_update_notifier=false")
	return inst
}

func npmEntry(version string) Entry {
	return Entry{ID: "npm-fixture", Name: "npm Fixture", Version: version,
		Distribution: Distribution{Npx: &Package{Package: "@fixture/agent@" + version, Args: []string{"--acp"}}}}
}

func TestNpmInstallWithRealNpm(t *testing.T) {
	f := newNpmFixture(t, "1.0.0", "1.1.0")
	inst := npmInstaller(t, f)
	ctx := context.Background()
	in, err := inst.Install(ctx, npmEntry("1.0.0"))
	if err != nil {
		t.Fatal(err)
	}
	// Started directly from the private prefix: node_modules/.bin, never npx.
	if want := filepath.Join(inst.Root, "npm-fixture", "1.0.0", "node_modules", ".bin", "fixture-agent"); in.Command() != want || in.Package != "@fixture/agent@1.0.0" {
		t.Fatalf("install %+v, want command %s", in, want)
	}
	if got := run(t, in); got != "npm fixture agent 1.0.0 --acp" {
		t.Fatalf("installed agent printed %q", got)
	}
	if _, err := inst.Install(ctx, npmEntry("1.1.0")); err != nil {
		t.Fatal(err)
	}
	cur, _ := inst.Current("npm-fixture")
	if got := run(t, cur); got != "npm fixture agent 1.1.0 --acp" {
		t.Fatalf("updated agent printed %q", got)
	}
	if _, err := inst.Rollback("npm-fixture"); err != nil {
		t.Fatal(err)
	}
	cur, err = inst.Current("npm-fixture")
	if err != nil || run(t, cur) != "npm fixture agent 1.0.0 --acp" {
		t.Fatalf("rollback: %v", err)
	}
	// The bin npm linked is checked like a binary: a changed script is refused.
	real, _ := filepath.EvalSymlinks(cur.Command())
	if err := os.WriteFile(real, []byte("#!/usr/bin/env node\nconsole.log('evil')\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := inst.Current("npm-fixture"); err == nil || !strings.Contains(err.Error(), "refused to start") {
		t.Fatalf("a changed npm bin was not refused: %v", err)
	}

	// A version the registry does not have fails and leaves the current install alone.
	before := f.fetched.Load()
	if _, err := inst.Install(ctx, npmEntry("9.9.9")); err == nil || !strings.Contains(err.Error(), "npm could not install @fixture/agent@9.9.9") {
		t.Fatalf("a missing version installed: %v", err)
	}
	if f.fetched.Load() != before {
		t.Fatal("a tarball was downloaded for a missing version")
	}
	if st, _ := inst.Installed(); st[0].Current.Version != "1.0.0" {
		t.Fatalf("after a failed update: %+v", st)
	}
}

func TestNpmRefusesUnpinned(t *testing.T) {
	for _, spec := range []string{"@fixture/agent@latest", "@fixture/agent@^1.0.0", "@fixture/agent@1"} {
		var ran bool
		inst := newInstaller(t)
		inst.NPM = func(context.Context, string, []string) ([]byte, error) { ran = true; return nil, nil }
		e := Entry{ID: "pin", Name: "Pin", Version: "1.0.0", Distribution: Distribution{Npx: &Package{Package: spec}}}
		if _, err := inst.Install(context.Background(), e); err == nil || !strings.Contains(err.Error(), "not an exact version") || ran {
			t.Errorf("%s: %v (npm ran: %v)", spec, err, ran)
		}
	}
}
