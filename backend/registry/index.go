package registry

import (
	"encoding/json"
	"fmt"
	"runtime"
	"sort"
	"strings"
)

// DefaultURL is the registry index the ACP registry publishes on every release.
const DefaultURL = "https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json"

// Index is registry.json: every agent the registry lists. Fields this package does not use
// (extensions, an entry's preview channel, ...) are ignored, so a newer index still reads.
type Index struct {
	Version string  `json:"version"`
	Agents  []Entry `json:"agents"`
}

// Entry is one agent of the index (the registry's agent.json).
type Entry struct {
	ID           string       `json:"id"`
	Name         string       `json:"name"`
	Version      string       `json:"version"`
	Description  string       `json:"description"`
	Repository   string       `json:"repository,omitempty"`
	Website      string       `json:"website,omitempty"`
	Authors      []string     `json:"authors,omitempty"`
	License      string       `json:"license,omitempty"`
	Icon         string       `json:"icon,omitempty"`
	Distribution Distribution `json:"distribution"`
}

// Distribution is how an entry is installed: at least one of its fields is set.
type Distribution struct {
	Binary map[string]Target `json:"binary,omitempty"` // by platform key (PlatformKey)
	Npx    *Package          `json:"npx,omitempty"`
	Uvx    *Package          `json:"uvx,omitempty"` // listed, not installed by agentdesk
}

// Package is an npx (or uvx) distribution: a package spec such as "@scope/pkg@1.2.3", the bin
// to run when the package has several (Cmd), its arguments and environment.
type Package struct {
	Package string            `json:"package"`
	Cmd     string            `json:"cmd,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	// Integrity is agentdesk's own (never in the index): the sha512 integrity npm must have
	// installed the package's tarball with, for a preset's pinned version (agents.Preset).
	Integrity string `json:"-"`
}

// Target is a binary distribution for one platform: the archive to download (.zip, .tar.gz,
// .tgz, .tar.bz2, .tbz2, or the raw executable), its optional sha256, and the command inside
// it to run (relative to the extracted folder, e.g. "./goose").
type Target struct {
	Archive string            `json:"archive"`
	SHA256  string            `json:"sha256,omitempty"`
	Cmd     string            `json:"cmd"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
}

// PlatformKey is the registry's name for this build's platform (e.g. "linux-x86_64").
func PlatformKey() string { return platformKey(runtime.GOOS, runtime.GOARCH) }

func platformKey(goos, goarch string) string {
	arch := map[string]string{"amd64": "x86_64", "arm64": "aarch64"}[goarch]
	if arch == "" {
		arch = goarch
	}
	return goos + "-" + arch
}

// Kind is how agentdesk would install the entry on platform: "binary" when the registry has a
// build for it, else "npx", else "" (a uvx-only entry, or no build for this platform).
// Binaries come first: they need no Node.js and carry a checksum.
func (e Entry) Kind(platform string) string {
	if _, ok := e.Distribution.Binary[platform]; ok {
		return "binary"
	}
	if e.Distribution.Npx != nil {
		return "npx"
	}
	return ""
}

// ParseIndex reads registry.json; an index with no agents or an entry without id or version
// is an error, so a broken download never replaces a good cached copy.
func ParseIndex(raw []byte) (Index, error) {
	var ix Index
	if err := json.Unmarshal(raw, &ix); err != nil {
		return Index{}, fmt.Errorf("the registry index is not valid JSON: %w", err)
	}
	if len(ix.Agents) == 0 {
		return Index{}, fmt.Errorf("the registry index lists no agents")
	}
	for i, e := range ix.Agents {
		if !idRe.MatchString(e.ID) || e.Version == "" {
			return Index{}, fmt.Errorf("the registry index's agent #%d has no valid id or version", i+1)
		}
	}
	sort.SliceStable(ix.Agents, func(i, j int) bool { return strings.ToLower(ix.Agents[i].Name) < strings.ToLower(ix.Agents[j].Name) })
	return ix, nil
}

// Find returns the entry with id.
func (ix Index) Find(id string) (Entry, bool) {
	for _, e := range ix.Agents {
		if e.ID == id {
			return e, true
		}
	}
	return Entry{}, false
}
