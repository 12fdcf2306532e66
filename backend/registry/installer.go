package registry

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"
)

// Installer installs registry agents under Root: <Root>/<id>/<version>/ holds one version,
// <Root>/<id>/state.json records which versions are there and which is current.
type Installer struct {
	Root     string       // the private prefix, e.g. <data>/registry/agents
	Client   *http.Client // downloads archives; nil is http.DefaultClient (no timeout: archives are large)
	NPM      Runner       // runs npm; nil runs "npm" found on Env's PATH
	NPMFlags []string     // added to every npm install (tests give --registry and --cache)
	Env      []string     // the environment npm runs with; nil: this process's own
	Platform string       // the registry's platform key; "" is PlatformKey()
	// MaxDownload bounds an archive's size, MaxExtract what it may extract to in all, MaxEntry
	// one file in it and MaxEntries its number of entries (0: 1 GiB, 4 GiB, 1 GiB, 200,000).
	MaxDownload, MaxExtract, MaxEntry int64
	MaxEntries                        int
	// Progress, when set, is told each step of an install as it starts, in words.
	Progress func(id, step string)
	Now      func() time.Time

	mu    sync.Mutex
	locks map[string]*sync.Mutex
}

// Runner runs npm with args in dir and returns what it printed (stdout and stderr).
type Runner func(ctx context.Context, dir string, args []string) ([]byte, error)

// lock serialises the installs (and rollbacks, uninstalls) of one agent.
func (i *Installer) lock(id string) func() {
	i.mu.Lock()
	if i.locks == nil {
		i.locks = map[string]*sync.Mutex{}
	}
	m := i.locks[id]
	if m == nil {
		m = &sync.Mutex{}
		i.locks[id] = m
	}
	i.mu.Unlock()
	m.Lock()
	return m.Unlock
}

func (i *Installer) platform() string {
	if i.Platform == "" {
		return PlatformKey()
	}
	return i.Platform
}

func (i *Installer) now() time.Time {
	if i.Now == nil {
		return time.Now()
	}
	return i.Now()
}

func (i *Installer) progress(id, step string) {
	if i.Progress != nil {
		i.Progress(id, step)
	}
}

// Install installs e at the version it names and makes it current; the version current
// before is kept for Rollback. Installing the current version again repairs it when Verify
// fails, and is a no-op otherwise. On any error the previous install is untouched.
// Update is the same call with the newer entry.
func (i *Installer) Install(ctx context.Context, e Entry) (Install, error) {
	if !idRe.MatchString(e.ID) || !versionRe.MatchString(e.Version) {
		return Install{}, fmt.Errorf("the registry entry %q has no valid id or version", e.ID)
	}
	defer i.lock(e.ID)()
	st, err := i.load(e.ID)
	if err != nil {
		return Install{}, err
	}
	if in, ok := st.Installs[e.Version]; ok && verify(in) == nil {
		if st.Current != e.Version { // back to a version still kept: no download needed
			st.Previous, st.Current = st.Current, e.Version
			if err := i.save(e.ID, st); err != nil {
				return Install{}, err
			}
		}
		return in, nil
	}
	dir := i.agentDir(e.ID)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Install{}, fmt.Errorf("create the install folder: %w", err)
	}
	tmp, err := os.MkdirTemp(dir, ".install-")
	if err != nil {
		return Install{}, fmt.Errorf("create the install folder: %w", err)
	}
	defer os.RemoveAll(tmp) // a no-op once renamed into place
	var in Install
	switch kind := e.Kind(i.platform()); kind {
	case "binary":
		in, err = i.installBinary(ctx, e, e.Distribution.Binary[i.platform()], tmp)
	case "npx":
		in, err = i.installNpm(ctx, e, *e.Distribution.Npx, tmp)
	default:
		err = fmt.Errorf("%s has no build for %s and no npm package: agentdesk cannot install it", e.Name, i.platform())
	}
	if err != nil {
		return Install{}, err
	}
	in.ID, in.Name, in.Version, in.InstalledAt = e.ID, e.Name, e.Version, i.now().UTC()
	if in.CommandSHA256, err = commandSum(tmp, in.Cmd); err != nil {
		return Install{}, err
	}
	final := filepath.Join(dir, e.Version)
	if err := replaceDir(tmp, final); err != nil {
		return Install{}, fmt.Errorf("put the install in place: %w", err)
	}
	in.Dir = final
	if st.Current != e.Version {
		st.Previous, st.Current = st.Current, e.Version
	}
	st.Installs[e.Version] = in
	for v := range st.Installs { // keep the current version and the one before it
		if v != st.Current && v != st.Previous {
			delete(st.Installs, v)
			_ = os.RemoveAll(filepath.Join(dir, v))
		}
	}
	if err := i.save(e.ID, st); err != nil {
		return Install{}, fmt.Errorf("record the install: %w", err)
	}
	return in, nil
}

// replaceDir renames tmp to final; a folder already at final (a damaged copy of the same
// version) is moved aside first and removed after, so final is never half there.
func replaceDir(tmp, final string) error {
	old := ""
	if _, err := os.Lstat(final); err == nil {
		old = final + ".old-" + randomSuffix()
		if err := os.Rename(final, old); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, final); err != nil {
		if old != "" {
			_ = os.Rename(old, final)
		}
		return err
	}
	if old != "" {
		_ = os.RemoveAll(old)
	}
	return nil
}

// Rollback makes the previous version current again (and the current one previous, so a
// second Rollback undoes the first).
func (i *Installer) Rollback(id string) (Install, error) {
	defer i.lock(id)()
	st, err := i.load(id)
	if err != nil {
		return Install{}, err
	}
	prev, ok := st.Installs[st.Previous]
	if st.Previous == "" || !ok {
		return Install{}, fmt.Errorf("%s has no previous version to roll back to", id)
	}
	st.Current, st.Previous = st.Previous, st.Current
	if err := i.save(id, st); err != nil {
		return Install{}, err
	}
	return prev, nil
}

// Uninstall removes every installed version of id.
func (i *Installer) Uninstall(id string) error {
	if !idRe.MatchString(id) {
		return fmt.Errorf("no installed agent %q", id)
	}
	if err := i.checkRoot(); err != nil {
		return err
	}
	defer i.lock(id)()
	dir := i.agentDir(id)
	if _, err := os.Stat(dir); err != nil {
		return fmt.Errorf("%s is not installed", id)
	}
	// Renamed first so a start racing the removal finds nothing rather than half a folder.
	gone := filepath.Join(i.Root, ".removing-"+id+"-"+randomSuffix())
	if err := os.Rename(dir, gone); err != nil {
		return fmt.Errorf("uninstall %s: %w", id, err)
	}
	return os.RemoveAll(gone)
}

// Status is what is installed of one agent.
type Status struct {
	Current  Install `json:"current"`
	Previous string  `json:"previous,omitempty"` // the version Rollback goes back to
}

// Installed lists the agents installed, by id.
func (i *Installer) Installed() ([]Status, error) {
	if i.checkRoot() != nil {
		return nil, nil // nothing can have been installed without a folder
	}
	ents, err := os.ReadDir(i.Root)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Status
	for _, d := range ents {
		if !d.IsDir() || !idRe.MatchString(d.Name()) {
			continue
		}
		st, err := i.load(d.Name())
		if err != nil {
			continue // a damaged record: Verify names it when the agent is started
		}
		if cur, ok := st.Installs[st.Current]; ok {
			out = append(out, Status{Current: cur, Previous: st.Previous})
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Current.ID < out[b].Current.ID })
	return out, nil
}

// Current is the current install of id, checked by Verify: an error says why it must not
// start.
func (i *Installer) Current(id string) (Install, error) {
	st, err := i.load(id)
	if err != nil {
		return Install{}, err
	}
	in, ok := st.Installs[st.Current]
	if !ok {
		return Install{}, fmt.Errorf("%s is not installed", id)
	}
	return in, verify(in)
}
