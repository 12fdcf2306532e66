package interop

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"agentdesk/backend/agents"
	"agentdesk/backend/registry"
)

// Pinned are the agents the suite runs: the presets at the versions agentdesk pins
// (backend/agents presets.go, the one place a pin is written), as the window installs them. Each
// installs from the npm registry with registry.Installer: the exact version, npm's lock file with
// every tarball's hash, the package's integrity equal to the pinned one, and the command's sha256
// checked before each start.
var Pinned = struct{ Claude, Codex, Gemini, Opencode registry.Entry }{Claude: presetEntry("claude"),
	Codex: presetEntry("codex"), Gemini: presetEntry("gemini"), Opencode: presetEntry("opencode")}

// presetEntry is preset id at its pinned version as the registry installer installs it.
func presetEntry(id string) registry.Entry {
	p, _ := agents.PresetByID(id)
	e, err := registry.PresetEntry(p, "")
	if err != nil {
		panic(err) // a preset the suite runs has a package: a change to presets.go broke it
	}
	return e
}

// RequireEnv, set to 1, makes a missing agent a failure instead of a skip, and lets the tests
// install the pinned agents from the npm registry first (`make interop`); set to 0, the tests
// skip even with the agents installed (make test's `go test ./...`, which runs them in a step
// of their own).
const RequireEnv = "AGENTDESK_INTEROP"

// AgentsEnv, when set, limits the suite to the agents it names (flavour names, comma-separated:
// "claude,codex", what `make test` runs); unset, every pinned agent runs (`make interop`).
const AgentsEnv = "AGENTDESK_INTEROP_AGENTS"

// Wanted reports whether the agent of flavour name runs (AgentsEnv).
func Wanted(name string) bool {
	v := os.Getenv(AgentsEnv)
	return v == "" || slices.Contains(strings.Split(v, ","), name)
}

// pinnedByName are the pinned agents under their flavours' names.
func pinnedByName() []struct {
	Name  string
	Entry registry.Entry
} {
	return []struct {
		Name  string
		Entry registry.Entry
	}{{"claude", Pinned.Claude}, {"codex", Pinned.Codex}, {"gemini", Pinned.Gemini}, {"opencode", Pinned.Opencode}}
}

// WantedPinned are the pinned agents that run (Wanted).
func WantedPinned() []registry.Entry {
	var out []registry.Entry
	for _, p := range pinnedByName() {
		if Wanted(p.Name) {
			out = append(out, p.Entry)
		}
	}
	return out
}

// CacheDir is where the agents are installed: $AGENTDESK_INTEROP_CACHE, else
// $XDG_CACHE_HOME/agentdesk/interop (~/.cache/…). It is outside the repository and kept between
// runs: an install is done once, then reused while its command's hash still matches.
func CacheDir() (string, error) {
	if d := os.Getenv("AGENTDESK_INTEROP_CACHE"); d != "" {
		return d, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache folder for the interop agents (set AGENTDESK_INTEROP_CACHE): %w", err)
	}
	return filepath.Join(base, "agentdesk", "interop"), nil
}

// Installer is the registry installer over CacheDir.
func Installer() (*registry.Installer, error) {
	dir, err := CacheDir()
	if err != nil {
		return nil, err
	}
	return &registry.Installer{Root: dir}, nil
}

// Installed is e's install in the cache when it is there at e's version and unchanged; the
// error says why not.
func Installed(e registry.Entry) (registry.Install, error) {
	in, err := Installer()
	if err != nil {
		return registry.Install{}, err
	}
	got, err := in.Current(e.ID)
	if err == nil && got.Version != e.Version {
		err = fmt.Errorf("%s %s is installed, not %s", e.ID, got.Version, e.Version)
	}
	return got, err
}

// Install installs e into the cache unless it is there already (a no-op then): npm reaches the
// registry it is configured with, and nothing else.
func Install(ctx context.Context, e registry.Entry) (registry.Install, error) {
	if got, err := Installed(e); err == nil {
		return got, nil
	}
	in, err := Installer()
	if err != nil {
		return registry.Install{}, err
	}
	return in.Install(ctx, e)
}
