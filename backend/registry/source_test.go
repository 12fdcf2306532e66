package registry

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"agentdesk/backend/agents"
)

func TestSnapshotParsesAndIsPinned(t *testing.T) {
	ix := Snapshot()
	if len(ix.Agents) < 4 {
		t.Fatalf("snapshot lists %d agents", len(ix.Agents))
	}
	for _, e := range ix.Agents {
		if e.Kind("linux-x86_64") == "" && e.Kind("darwin-aarch64") == "" {
			t.Errorf("%s: nothing agentdesk can install", e.ID)
		}
		if p := e.Distribution.Npx; p != nil {
			if _, v := splitSpec(p.Package); !agents.ExactVersion(v) {
				t.Errorf("%s: %q is not pinned", e.ID, p.Package)
			}
		}
	}
}

func TestParseIndexToleratesUnknownFields(t *testing.T) {
	ix, err := ParseIndex([]byte(`{"version":"1.0.0","extensions":[{"x":1}],"agents":[{"id":"a","name":"A","version":"1.0.0",
		"description":"d","preview":{"version":"1.1.0-preview.1"},"distribution":{"npx":{"package":"a@1.0.0","cmd":"a"},"future":{}}}]}`))
	if err != nil || len(ix.Agents) != 1 || ix.Agents[0].Distribution.Npx.Cmd != "a" {
		t.Fatalf("%+v %v", ix, err)
	}
	if _, err := ParseIndex([]byte(`{"agents":[{"id":"../x","version":"1"}]}`)); err == nil {
		t.Fatal("an entry with an unsafe id was accepted")
	}
}

func TestSourceCachesRevalidatesAndFallsBack(t *testing.T) {
	reg := newFixtureRegistry(t)
	url := reg.index(t, reg.binaryEntry(t, "1.0.0", false))
	var conditional atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") != "" || r.Header.Get("If-Modified-Since") != "" {
			conditional.Add(1)
		}
		w.Header().Set("ETag", `"v1"`)
		if r.Header.Get("If-None-Match") == `"v1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		http.Redirect(w, r, url, http.StatusFound) // the CDN's address redirects to the file
	}))
	day := time.Date(2026, 3, 4, 5, 6, 0, 0, time.UTC)
	src := &Source{URL: srv.URL + "/registry.json", Dir: t.TempDir(), Now: func() time.Time { return day }}
	ctx := context.Background()

	l := src.Load(ctx)
	if l.Origin != OriginNetwork || l.Offline || len(l.Index.Agents) != 1 || l.Index.Agents[0].ID != "fixture" || conditional.Load() != 0 {
		t.Fatalf("first load: %+v", l)
	}
	l = src.Load(ctx)
	if l.Origin != OriginNetwork || len(l.Index.Agents) != 1 || conditional.Load() != 1 {
		t.Fatalf("second load was not revalidated from the cache: %+v (%d conditional)", l, conditional.Load())
	}

	srv.Close() // offline: the cached copy, saying so
	l = src.Load(ctx)
	if l.Origin != OriginCache || !l.Offline || len(l.Index.Agents) != 1 || !strings.Contains(l.Note, "Offline") ||
		!strings.Contains(l.Note, "2026-03-04") || l.Problem == "" {
		t.Fatalf("offline with a cache: %+v", l)
	}

	empty := &Source{URL: srv.URL + "/registry.json", Dir: t.TempDir()}
	l = empty.Load(ctx)
	if l.Origin != OriginSnapshot || !l.Offline || len(l.Index.Agents) != len(Snapshot().Agents) ||
		!strings.Contains(l.Note, "snapshot of "+SnapshotDate.Format("2006-01-02")) {
		t.Fatalf("offline without a cache: %+v", l)
	}
}

func TestSourceKeepsCacheOnBadIndex(t *testing.T) {
	reg := newFixtureRegistry(t)
	reg.index(t, reg.binaryEntry(t, "1.0.0", false))
	src := &Source{URL: reg.srv.URL + "/registry.json", Dir: t.TempDir()}
	if l := src.Load(context.Background()); l.Origin != OriginNetwork {
		t.Fatalf("%+v", l)
	}
	reg.put(t, "registry.json", []byte(`<html>captive portal</html>`))
	later := time.Now().Add(time.Hour) // Last-Modified has whole seconds: make the change visible
	if err := os.Chtimes(filepath.Join(reg.dir, "registry.json"), later, later); err != nil {
		t.Fatal(err)
	}
	l := src.Load(context.Background())
	if l.Origin != OriginCache || len(l.Index.Agents) != 1 || !strings.Contains(l.Problem, "not valid JSON") {
		t.Fatalf("a broken index replaced the cache: %+v", l)
	}
}
