package registry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"agentdesk/backend/atomicfile"
)

// Where a Listing's index came from.
const (
	OriginNetwork  = "network"  // fetched now (or confirmed unchanged by the registry)
	OriginCache    = "cache"    // the copy fetched earlier, the registry being unreachable
	OriginSnapshot = "snapshot" // the copy shipped in the binary, nothing better being at hand
)

// maxIndexSize bounds the index download: the real one is tens of kilobytes.
const maxIndexSize = 8 << 20

// Source fetches the registry index and keeps a copy in Dir (index.json and index.meta.json).
type Source struct {
	URL    string       // the index's address; "" is DefaultURL
	Client *http.Client // nil is a client with a 20 s timeout
	Dir    string       // where the copy is kept; "" keeps none
	Now    func() time.Time
}

// Listing is the index a Source could get, and where from.
type Listing struct {
	Index     Index     `json:"index"`
	Origin    string    `json:"origin"`    // OriginNetwork, OriginCache or OriginSnapshot
	Offline   bool      `json:"offline"`   // the registry could not be reached
	FetchedAt time.Time `json:"fetchedAt"` // when the index was fetched (the snapshot's date for it)
	Note      string    `json:"note"`      // what to tell the person, "" when online
	Problem   string    `json:"problem,omitempty"`
}

// cacheMeta is index.meta.json: what a conditional request needs, and when it was fetched.
type cacheMeta struct {
	ETag         string    `json:"etag,omitempty"`
	LastModified string    `json:"lastModified,omitempty"`
	FetchedAt    time.Time `json:"fetchedAt"`
}

func (s *Source) url() string {
	if s.URL == "" {
		return DefaultURL
	}
	return s.URL
}

func (s *Source) now() time.Time {
	if s.Now == nil {
		return time.Now()
	}
	return s.Now()
}

// Load returns the freshest index it can: the registry's (a 304 reuses the cached copy), else
// the cached copy, else the embedded snapshot. It never fails; Problem says why the registry
// could not be used.
func (s *Source) Load(ctx context.Context) Listing {
	cached, meta, cacheErr := s.readCache()
	ix, fresh, err := s.fetch(ctx, meta, cacheErr == nil)
	switch {
	case err == nil && !fresh:
		meta.FetchedAt = s.now()
		s.writeMeta(meta)
		return Listing{Index: cached, Origin: OriginNetwork, FetchedAt: meta.FetchedAt}
	case err == nil:
		return Listing{Index: ix, Origin: OriginNetwork, FetchedAt: s.now()}
	case cacheErr == nil:
		return Listing{Index: cached, Origin: OriginCache, Offline: true, FetchedAt: meta.FetchedAt, Problem: err.Error(),
			Note: fmt.Sprintf("Offline: showing the registry as fetched on %s.", meta.FetchedAt.Format("2006-01-02 15:04"))}
	}
	snap := Snapshot()
	return Listing{Index: snap, Origin: OriginSnapshot, Offline: true, FetchedAt: SnapshotDate, Problem: err.Error(),
		Note: fmt.Sprintf("Offline: showing the snapshot of %s shipped with agentdesk.", SnapshotDate.Format("2006-01-02"))}
}

// fetch gets the index; fresh false means the registry answered 304 (the cached copy holds).
func (s *Source) fetch(ctx context.Context, meta cacheMeta, haveCache bool) (Index, bool, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.url(), nil)
	if err != nil {
		return Index{}, false, err
	}
	if haveCache {
		if meta.ETag != "" {
			req.Header.Set("If-None-Match", meta.ETag)
		}
		if meta.LastModified != "" {
			req.Header.Set("If-Modified-Since", meta.LastModified)
		}
	}
	client := s.Client
	if client == nil {
		client = &http.Client{Timeout: 20 * time.Second}
	}
	resp, err := client.Do(req)
	if err != nil {
		return Index{}, false, fmt.Errorf("the registry cannot be reached: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotModified && haveCache {
		return Index{}, false, nil
	}
	if resp.StatusCode != http.StatusOK {
		return Index{}, false, fmt.Errorf("the registry answered %s", resp.Status)
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxIndexSize+1))
	if err != nil {
		return Index{}, false, fmt.Errorf("reading the registry index: %w", err)
	}
	if len(raw) > maxIndexSize {
		return Index{}, false, errors.New("the registry index is larger than 8 MiB")
	}
	ix, err := ParseIndex(raw)
	if err != nil {
		return Index{}, false, err
	}
	s.writeCache(raw, cacheMeta{ETag: resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified"), FetchedAt: s.now()})
	return ix, true, nil
}

func (s *Source) readCache() (Index, cacheMeta, error) {
	var meta cacheMeta
	if s.Dir == "" {
		return Index{}, meta, errors.New("no cache")
	}
	raw, err := os.ReadFile(filepath.Join(s.Dir, "index.json"))
	if err != nil {
		return Index{}, meta, err
	}
	ix, err := ParseIndex(raw)
	if err != nil {
		return Index{}, meta, err
	}
	if m, err := os.ReadFile(filepath.Join(s.Dir, "index.meta.json")); err == nil {
		_ = json.Unmarshal(m, &meta) // without it the copy is still good, only not conditional
	}
	return ix, meta, nil
}

// writeCache keeps the index for the next offline start; failing to is not worth an error
// (the index was fetched), so it is dropped silently.
func (s *Source) writeCache(raw []byte, meta cacheMeta) {
	if s.Dir == "" || os.MkdirAll(s.Dir, 0o700) != nil {
		return
	}
	if atomicfile.Write(filepath.Join(s.Dir, "index.json"), raw, 0o600) == nil {
		s.writeMeta(meta)
	}
}

func (s *Source) writeMeta(meta cacheMeta) {
	if s.Dir == "" {
		return
	}
	if raw, err := json.Marshal(meta); err == nil {
		_ = atomicfile.Write(filepath.Join(s.Dir, "index.meta.json"), raw, 0o600)
	}
}
