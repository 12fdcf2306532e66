package main

import (
	"fmt"
	"strings"

	"agentdesk/backend/agents"
)

// MCPSettings is an MCP server as the editor shows and saves it (backend/agents.MCPServer).
// Secrets follow AgentEnvVar's rule: a secret's value never comes to the page, IsSet says one
// is stored, and saved blank it keeps that value.
type MCPSettings struct {
	Name string `json:"name"`
	// Was is the name it was saved under ("" for a new server): saved under another Name, the
	// server is renamed (its secrets must be given again, as they are kept by name).
	Was       string        `json:"was"`
	Transport string        `json:"transport"` // stdio | http | sse
	Command   string        `json:"command"`   // stdio
	Args      string        `json:"args"`      // stdio; one line, split as a shell would
	Env       []AgentEnvVar `json:"env"`       // stdio
	URL       string        `json:"url"`       // http, sse
	Headers   []AgentEnvVar `json:"headers"`   // http, sse
	Agents    []string      `json:"agents"`    // empty: every agent
	Disabled  bool          `json:"disabled"`
}

// ListMCPServers lists the configured MCP servers, in the order they were added.
func (ags *Agents) ListMCPServers() []MCPSettings {
	out := []MCPSettings{}
	for _, m := range ags.catalog.MCPServers() {
		out = append(out, ags.mcpSettings(m))
	}
	return out
}

// SaveMCPServer adds or replaces (by Was) an MCP server and stores its secret values; it
// returns the server as the editor shows it. An invalid server is refused with the reason and
// nothing is saved. Sessions started from now on get it; running ones keep what they had.
func (ags *Agents) SaveMCPServer(s MCPSettings) (MCPSettings, error) {
	args, err := agents.SplitArgs(s.Args)
	if err != nil {
		return MCPSettings{}, err
	}
	values := map[string]string{}
	vars := func(rows []AgentEnvVar) []agents.EnvVar {
		var out []agents.EnvVar
		for _, v := range rows {
			name := strings.TrimSpace(v.Name)
			if name == "" && v.Value == "" {
				continue // an empty row of the editor
			}
			out = append(out, agents.EnvVar{Name: name, Value: v.Value, Secret: v.Secret})
			if v.Secret && (v.Value != "" || !v.IsSet || s.Was != strings.TrimSpace(s.Name)) {
				values[name] = v.Value
			}
		}
		return out
	}
	m := agents.MCPServer{Name: s.Name, Transport: s.Transport, Command: s.Command, Args: args, Env: vars(s.Env),
		URL: s.URL, Headers: vars(s.Headers), Agents: s.Agents, Disabled: s.Disabled}
	saved, err := ags.catalog.SaveMCPServer(m, values)
	if err != nil {
		return MCPSettings{}, err
	}
	if s.Was != "" && s.Was != saved.Name {
		if err := ags.catalog.DeleteMCPServer(s.Was); err != nil {
			return ags.mcpSettings(saved), fmt.Errorf("saved as %q, but %q could not be removed: %w", saved.Name, s.Was, err)
		}
	}
	return ags.mcpSettings(saved), nil
}

// DeleteMCPServer removes an MCP server and its secrets.
func (ags *Agents) DeleteMCPServer(name string) error {
	return ags.catalog.DeleteMCPServer(name)
}

// mcpSettings is m for the editor: secrets say only whether they are set.
func (ags *Agents) mcpSettings(m agents.MCPServer) MCPSettings {
	owner := agents.MCPSecretOwner(m.Name)
	list := m.Agents
	if list == nil {
		list = []string{}
	}
	return MCPSettings{Name: m.Name, Was: m.Name, Transport: m.Transport, Command: m.Command, Args: agents.JoinArgs(m.Args),
		Env: ags.envForEditor(owner, m.Env), URL: m.URL, Headers: ags.envForEditor(owner, m.Headers), Agents: list, Disabled: m.Disabled}
}
