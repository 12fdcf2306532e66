package main

import (
	"context"
	"fmt"
	"log"
	"strings"

	"agentdesk/backend/agents"
)

// presetProgressEvent carries each step of a preset's install to the window: PresetProgress.
const presetProgressEvent = "preset:progress"

// PresetProgress is one step of a preset's install, as it starts.
type PresetProgress struct {
	ID   string `json:"id"`
	Step string `json:"step"`
}

// The presets' verbs of the Agents service: a preset's override in the agent editor (stored
// like a custom agent's settings, keyed to the preset's id: agents.Override) and its pinned
// package installed or updated (backend/registry.Presets, with npm's integrity check and the
// pinned one). Installs wait on npm (minutes, the window's context cancels them), the rest at
// most on the keyring.

// attachPresets tells the window each step of a preset's install.
func (ags *Agents) attachPresets() {
	ags.presets.Installer.Progress = func(id, step string) {
		ags.emit(ags.ctx, presetProgressEvent, PresetProgress{ID: id, Step: step})
	}
}

// GetPresetOverride is the override of preset id for the editor: its settings as saved, or the
// preset's own (Name and Args filled in, nothing overridden) when it has none.
func (ags *Agents) GetPresetOverride(id string) (AgentSettings, error) {
	p, ok := agents.PresetByID(id)
	if !ok {
		return AgentSettings{}, fmt.Errorf("%q is not a preset", id)
	}
	s := AgentSettings{ID: p.ID, Name: p.Name, Args: agents.JoinArgs(p.PackageArgs), Env: []AgentEnvVar{}}
	if p.Package == "" {
		s.Args = agents.JoinArgs(p.Args)
	}
	o, ok := ags.catalog.Override(id)
	if !ok {
		return s, nil
	}
	s.Command, s.Folder, s.Version, s.Env = o.Command, o.Folder, o.Version, ags.envForEditor(id, o.Env)
	if o.Args != nil {
		s.Args = agents.JoinArgs(o.Args)
	}
	return s, nil
}

// SavePresetOverride stores s as the override of the preset s.ID (its name is the preset's and
// is not saved; arguments equal to the preset's are not an override of them) and returns the
// preset as the picker lists it. A version that is not exact is refused, nothing saved.
func (ags *Agents) SavePresetOverride(s AgentSettings) (AgentInfo, error) {
	def, err := ags.GetPresetOverride(s.ID)
	if err != nil {
		return AgentInfo{}, err
	}
	o := agents.Override{ID: s.ID, Command: s.Command, Folder: s.Folder, Version: s.Version}
	if strings.TrimSpace(s.Args) != strings.TrimSpace(def.Args) {
		if o.Args, err = agents.SplitArgs(s.Args); err != nil {
			return AgentInfo{}, err
		}
		if o.Args == nil {
			o.Args = []string{} // the field emptied: no arguments
		}
	} else if cur, ok := ags.catalog.Override(s.ID); ok {
		o.Args = cur.Args
	}
	var values map[string]string
	o.Env, values = envFromEditor(s.Env)
	aside, err := ags.catalog.SaveOverride(o, values)
	if err != nil {
		return AgentInfo{}, err
	}
	if aside != "" {
		log.Printf("agentdesk: your unreadable agents file was kept as %s", aside)
	}
	return ags.presetInfo(s.ID)
}

// ResetPreset removes the override of preset id (and its secrets; a login's stay).
func (ags *Agents) ResetPreset(id string) (AgentInfo, error) {
	if err := ags.catalog.ResetOverride(id); err != nil {
		return AgentInfo{}, err
	}
	return ags.presetInfo(id)
}

// InstallPreset installs preset id's package at the version pinned for it (the override's, else
// this build's), or moves an installed one to it: the window's Install and Update. Each step is
// told to the window (preset:progress). It waits on npm; quitting the window cancels it.
func (ags *Agents) InstallPreset(id string) (AgentInfo, error) {
	p, ok := agents.PresetByID(id)
	if !ok {
		return AgentInfo{}, fmt.Errorf("%q is not a preset", id)
	}
	o, _ := ags.catalog.Override(id)
	if _, err := ags.presets.Install(ags.context(), p, o.Version); err != nil {
		return AgentInfo{}, forWindow(err)
	}
	return ags.presetInfo(id)
}

func (ags *Agents) presetInfo(id string) (AgentInfo, error) {
	for _, ag := range ags.catalog.List() {
		if ag.ID == id {
			return ags.info(ag), nil
		}
	}
	return AgentInfo{}, fmt.Errorf("no preset %q", id)
}

// context is the window's, so a quit cancels an install; tests have none.
func (ags *Agents) context() context.Context {
	if ags.ctx == nil {
		return context.Background()
	}
	return ags.ctx
}
