package main

import (
	"context"
	"fmt"
	"sync"

	"agentdesk/backend/registry"
)

// registryProgressEvent carries each step of an install to the Registry view: RegistryProgress.
const registryProgressEvent = "registry:progress"

// Registry is the ACP registry's service: the Registry view browses the index (the network's,
// else the cached copy, else the snapshot in the binary) and installs, updates, rolls back and
// uninstalls its agents. The logic is backend/registry's; installed agents reach the picker
// through the agent catalog (hub.Open adds them), which checks each before it starts.
type Registry struct {
	*core
	source    *registry.Source
	installer *registry.Installer

	mu   sync.Mutex
	last registry.Index // the index last listed, which installs read their entry from
}

// RegistryItem is one agent of the registry as the view lists it.
type RegistryItem struct {
	ID          string `json:"id"`
	AgentID     string `json:"agentId"` // its id in the agent catalog once installed
	Name        string `json:"name"`
	Version     string `json:"version"` // the registry's version
	Description string `json:"description"`
	Website     string `json:"website,omitempty"`
	License     string `json:"license,omitempty"`
	Kind        string `json:"kind"`              // "binary" | "npx" | "" (cannot be installed here)
	Source      string `json:"source"`            // the npm package or the archive installed from
	Installed   string `json:"installed"`         // the version installed and current, or ""
	Previous    string `json:"previous"`          // the version a rollback goes back to, or ""
	Verified    bool   `json:"verified"`          // the registry gives the archive's sha256
	Problem     string `json:"problem,omitempty"` // why the installed copy will not start
}

// RegistryListing is the registry as the view shows it, and where it came from.
type RegistryListing struct {
	Items     []RegistryItem `json:"items"`
	Origin    string         `json:"origin"` // network | cache | snapshot
	Offline   bool           `json:"offline"`
	Note      string         `json:"note"` // e.g. "Offline: showing the snapshot of 2026-12-06 …"
	Problem   string         `json:"problem,omitempty"`
	FetchedAt string         `json:"fetchedAt"` // RFC 3339
	Platform  string         `json:"platform"`  // e.g. linux-x86_64
}

// RegistryProgress is one step of an install, as it starts.
type RegistryProgress struct {
	ID   string `json:"id"`
	Step string `json:"step"`
}

// attach is the registry of the core (hub.Open), whose installs the catalog lists already;
// each step of an install is told to the view.
func (r *Registry) attach(src *registry.Source, inst *registry.Installer) {
	r.source, r.installer = src, inst
	r.installer.Progress = func(id, step string) {
		r.emit(r.ctx, registryProgressEvent, RegistryProgress{ID: id, Step: step})
	}
}

// ListRegistry reads the registry (it may wait on the network, at most 30 s) and what is installed.
func (r *Registry) ListRegistry() (RegistryListing, error) {
	l := r.source.Load(r.context())
	r.mu.Lock()
	r.last = l.Index
	r.mu.Unlock()
	out := RegistryListing{Origin: l.Origin, Offline: l.Offline, Note: l.Note, Problem: l.Problem,
		FetchedAt: l.FetchedAt.UTC().Format("2006-01-02T15:04:05Z"), Platform: registry.PlatformKey(), Items: []RegistryItem{}}
	installed, err := r.installer.Installed()
	if err != nil {
		return out, fmt.Errorf("read the installed agents: %w", err)
	}
	byID := map[string]registry.Status{}
	for _, st := range installed {
		byID[st.Current.ID] = st
	}
	for _, e := range l.Index.Agents {
		out.Items = append(out.Items, r.item(e, byID[e.ID]))
		delete(byID, e.ID)
	}
	for _, st := range installed { // installed, no longer listed: still shown, to uninstall
		if _, left := byID[st.Current.ID]; left {
			e := registry.Entry{ID: st.Current.ID, Name: st.Current.Name, Description: "No longer in the registry."}
			out.Items = append(out.Items, r.item(e, st))
		}
	}
	return out, nil
}

func (r *Registry) item(e registry.Entry, st registry.Status) RegistryItem {
	it := RegistryItem{ID: e.ID, AgentID: registry.AgentPrefix + e.ID, Name: e.Name, Version: e.Version, Description: e.Description,
		Website: e.Website, License: e.License, Kind: e.Kind(registry.PlatformKey())}
	if it.Website == "" {
		it.Website = e.Repository
	}
	switch it.Kind {
	case "npx":
		it.Source = e.Distribution.Npx.Package
	case "binary":
		t := e.Distribution.Binary[registry.PlatformKey()]
		it.Source, it.Verified = t.Archive, t.SHA256 != ""
	}
	if st.Current.Version != "" {
		it.Installed, it.Previous = st.Current.Version, st.Previous
		if _, err := r.installer.Current(e.ID); err != nil {
			it.Problem = err.Error()
		}
	}
	return it
}

// InstallRegistryAgent installs the agent id at the version the registry names now (an update when an
// older one is installed; that one is kept for Rollback).
func (r *Registry) InstallRegistryAgent(id string) (RegistryItem, error) {
	r.mu.Lock()
	e, ok := r.last.Find(id)
	r.mu.Unlock()
	if !ok {
		return RegistryItem{}, fmt.Errorf("the registry lists no agent %q: reload the registry", id)
	}
	if _, err := r.installer.Install(r.context(), e); err != nil {
		return RegistryItem{}, forWindow(err)
	}
	return r.itemOf(e)
}

// RollbackRegistryAgent makes the version installed before current again.
func (r *Registry) RollbackRegistryAgent(id string) (RegistryItem, error) {
	if _, err := r.installer.Rollback(id); err != nil {
		return RegistryItem{}, forWindow(err)
	}
	r.mu.Lock()
	e, ok := r.last.Find(id)
	r.mu.Unlock()
	if !ok {
		e = registry.Entry{ID: id, Name: id}
	}
	return r.itemOf(e)
}

// UninstallRegistryAgent removes every installed version of the agent id.
func (r *Registry) UninstallRegistryAgent(id string) error {
	return forWindow(r.installer.Uninstall(id))
}

func (r *Registry) itemOf(e registry.Entry) (RegistryItem, error) {
	list, err := r.installer.Installed()
	for _, st := range list {
		if st.Current.ID == e.ID {
			return r.item(e, st), err
		}
	}
	return r.item(e, registry.Status{}), err
}

// context is the window's, so a quit cancels a download; tests have none.
func (r *Registry) context() context.Context {
	if r.ctx == nil {
		return context.Background()
	}
	return r.ctx
}
