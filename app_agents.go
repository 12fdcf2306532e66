package main

import (
	"errors"
	"fmt"
	"log"
	"strings"

	"agentdesk/backend/acp"
	"agentdesk/backend/agents"
	"agentdesk/backend/registry"
)

// Agents is the bound service of the agent catalog (backend/agents): the picker's list and the
// agent editor (custom agents, kept in agents.json; their secrets, in the keyring or else a
// 0600 file; Zed import; the presets' overrides and pinned installs: app_presets.go). Its verbs may wait on the keyring, never on an agent. Secret values
// go one way only, from the page to the store: what the page reads back is whether a secret
// is set, never its value.
type Agents struct {
	*core
	presets registry.Presets // installs the presets' packages (app_presets.go)
}

// AgentInfo is an agent the picker lists.
type AgentInfo struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Available bool   `json:"available"`
	Reason    string `json:"reason,omitempty"`
	Custom    bool   `json:"custom"`           // the user's own: it can be edited and deleted
	Folder    string `json:"folder,omitempty"` // a custom agent's default project folder

	// Version is the installed version of an agent from the ACP registry or of a preset's
	// package, else "".
	Version string `json:"version,omitempty"`
	// SignIn is the agent's sign-in state as it last said it in a session of this run, in words
	// for the picker ("signed in: Work", "not signed in"); "" when it has not said (authNote).
	SignIn string `json:"signIn,omitempty"`
	// Preset is a preset's package, its pin and what the user made of it (install, update,
	// override); nil for other agents.
	Preset *agents.PresetState `json:"preset,omitempty"`
}

// info is ag as the picker lists it, with its sign-in state as this run last heard it.
func (ags *Agents) info(ag agents.Agent) AgentInfo {
	return AgentInfo{ID: ag.ID, Name: ag.Name, Available: ag.Available, Reason: ag.Reason,
		Custom: ag.Custom, Folder: ag.Folder, Version: ag.Version, Preset: ag.Preset,
		SignIn: authNote(ags.hub.AuthStatusOf(ag.ID))}
}

// AgentSettings is a custom agent as the editor shows and saves it.
type AgentSettings struct {
	ID      string        `json:"id"` // "" for a new agent
	Name    string        `json:"name"`
	Command string        `json:"command"`
	Args    string        `json:"args"` // one line, split as a shell would, without expanding anything
	Env     []AgentEnvVar `json:"env"`
	Folder  string        `json:"folder"`
	// Version is a preset override's package version ("": the pinned one); unused for custom agents.
	Version string `json:"version,omitempty"`
}

// AgentEnvVar is one variable in the editor. A secret's Value is never sent to the page
// (always ""); IsSet says whether one is stored. Saved with Value "", a secret that IsSet keeps
// its stored value; with a Value, that value replaces it.
type AgentEnvVar struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Secret bool   `json:"secret"`
	IsSet  bool   `json:"isSet"`
}

// ImportResult says what ImportZedAgents did.
type ImportResult struct {
	Added   []string `json:"added"`   // names of the agents added or replaced
	Skipped []string `json:"skipped"` // entries left out, each with its reason
}

// ListAgents lists the Demo agent first, then the presets (unavailable ones with the reason),
// then the custom agents.
func (ags *Agents) ListAgents() ([]AgentInfo, error) {
	out := []AgentInfo{}
	for _, ag := range ags.catalog.List() {
		out = append(out, ags.info(ag))
	}
	return out, nil
}

// AgentsNotice is what the user must know about their custom agents at start-up (agents.json
// cannot be read, and why), or "".
func (ags *Agents) AgentsNotice() string {
	if err := ags.catalog.Problem(); err != nil {
		return err.Error()
	}
	return ""
}

// GetAgent returns a custom agent for the editor; secrets say only whether they are set.
func (ags *Agents) GetAgent(id string) (AgentSettings, error) {
	cu, err := ags.catalog.Custom(id)
	if err != nil {
		return AgentSettings{}, err
	}
	return AgentSettings{ID: cu.ID, Name: cu.Name, Command: cu.Command, Args: agents.JoinArgs(cu.Args),
		Env: ags.envForEditor(cu.ID, cu.Env), Folder: cu.Folder}, nil
}

// SaveAgent adds (ID "") or replaces a custom agent and stores its secret values; it returns
// the agent as the picker lists it. An invalid agent is refused with the reason; nothing is
// saved then.
func (ags *Agents) SaveAgent(s AgentSettings) (AgentInfo, error) {
	args, err := agents.SplitArgs(s.Args)
	if err != nil {
		return AgentInfo{}, err
	}
	cu := agents.Custom{ID: s.ID, Name: s.Name, Command: s.Command, Args: args, Folder: strings.TrimSpace(s.Folder)}
	var values map[string]string
	cu.Env, values = envFromEditor(s.Env)
	saved, aside, err := ags.catalog.Save(cu, values)
	if err != nil {
		return AgentInfo{}, err
	}
	if aside != "" {
		log.Printf("agentdesk: your unreadable agents file was kept as %s", aside)
	}
	return ags.info(ags.catalog.Resolve(saved)), nil
}

// envFromEditor is the editor's variable rows as stored (empty rows dropped) and the secret
// values to store (a blank secret that is set keeps its stored value).
func envFromEditor(rows []AgentEnvVar) ([]agents.EnvVar, map[string]string) {
	var env []agents.EnvVar
	values := map[string]string{}
	for _, v := range rows {
		if strings.TrimSpace(v.Name) == "" && v.Value == "" {
			continue // an empty row of the editor
		}
		env = append(env, agents.EnvVar{Name: strings.TrimSpace(v.Name), Value: v.Value, Secret: v.Secret})
		if v.Secret && (v.Value != "" || !v.IsSet) {
			values[strings.TrimSpace(v.Name)] = v.Value
		}
	}
	return env, values
}

// envForEditor is vars as the editor shows them: a secret says only whether owner has it stored.
func (ags *Agents) envForEditor(owner string, vars []agents.EnvVar) []AgentEnvVar {
	out := []AgentEnvVar{}
	for _, v := range vars {
		ev := AgentEnvVar{Name: v.Name, Value: v.Value, Secret: v.Secret}
		if v.Secret {
			ev.Value, ev.IsSet = "", ags.catalog.IsSet(owner, v.Name)
		}
		out = append(out, ev)
	}
	return out
}

// DeleteAgent deletes a custom agent and its secrets. Its saved sessions stay in the history.
func (ags *Agents) DeleteAgent(id string) error {
	if agents.Reserved(id) {
		return fmt.Errorf("%q is a built-in agent: it cannot be deleted", id)
	}
	return ags.catalog.Delete(id)
}

// ImportZedAgents adds the custom agents of Zed's settings (the whole settings.json or just
// {"agent_servers": {...}}; comments and trailing commas are fine). Agents already imported
// are replaced. Variables named like credentials become secrets.
func (ags *Agents) ImportZedAgents(text string) (ImportResult, error) {
	if strings.TrimSpace(text) == "" {
		return ImportResult{}, errors.New("paste Zed's settings.json (or its agent_servers part) first")
	}
	added, skipped, err := ags.catalog.Import(text)
	if err != nil {
		return ImportResult{}, err
	}
	if added == nil {
		added = []string{}
	}
	if skipped == nil {
		skipped = []string{}
	}
	return ImportResult{Added: added, Skipped: skipped}, nil
}

// authNote words an agent's sign-in state for the picker; "" when it is not known.
func authNote(st acp.AuthStatus, ok bool) string {
	switch {
	case !ok:
		return ""
	case st.State == acp.AuthAuthenticated && st.Label != "":
		return "signed in: " + st.Label
	case st.State == acp.AuthAuthenticated:
		return "signed in"
	case st.State == acp.AuthUnauthenticated:
		return "not signed in"
	case st.State == acp.AuthNotRequired:
		return "no sign-in needed"
	}
	return ""
}
