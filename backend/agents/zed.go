package agents

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/tailscale/hujson"
)

// ZedImport is what ParseZed found: agents to add (or replace, by id), and the entries it
// skipped with the reason for each.
type ZedImport struct {
	Agents  []Custom
	Secrets map[string]map[string]string // agent id → secret variable → value (not in Agents)
	// MCPServers: Zed's context_servers, for every agent; MCPSecrets: server name → secret
	// variable or header → value (not in MCPServers).
	MCPServers []MCPServer
	MCPSecrets map[string]map[string]string
	Skipped    []string
}

// zedServer is one entry of Zed's agent_servers setting. Built-in agents (claude, codex,
// gemini) appear there with settings but no command: they are skipped.
type zedServer struct {
	Type    string            `json:"type"`
	Command string            `json:"command"`
	Path    string            `json:"path"` // older Zed releases
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
}

// secretName guesses which variables hold credentials: their values are stored as secrets.
var secretName = regexp.MustCompile(`(?i)(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)`)

// ParseZed reads custom agents and MCP servers (context_servers, see parseZedMCP) from Zed's
// settings: either the whole settings.json or just `{"agent_servers": {...}}`, with Zed's comments and trailing commas allowed (parsed by
// github.com/tailscale/hujson, the JWCC parser Tailscale maintains for its own policy files,
// so a pasted settings file needs no cleaning). Each server with a command becomes a custom
// agent with id Slug(name); variables whose names look like credentials (…KEY, …TOKEN,
// …SECRET, …PASSWORD) are marked secret and their values returned apart, in Secrets.
func ParseZed(text string) (ZedImport, error) {
	std, err := hujson.Standardize([]byte(text))
	if err != nil {
		return ZedImport{}, fmt.Errorf("this is not Zed's settings JSON: %w", err)
	}
	var settings struct {
		AgentServers   map[string]json.RawMessage `json:"agent_servers"`
		ContextServers map[string]json.RawMessage `json:"context_servers"`
	}
	if err := json.Unmarshal(std, &settings); err != nil {
		return ZedImport{}, fmt.Errorf("this is not Zed's settings JSON: %w", err)
	}
	if len(settings.AgentServers) == 0 && len(settings.ContextServers) == 0 {
		return ZedImport{}, fmt.Errorf(`no "agent_servers" or "context_servers" found: paste Zed's settings.json or {"agent_servers": {"Name": {"command": "...", "args": [...], "env": {...}}}}`)
	}
	names := make([]string, 0, len(settings.AgentServers))
	for n := range settings.AgentServers {
		names = append(names, n)
	}
	sort.Strings(names)
	out := ZedImport{Secrets: map[string]map[string]string{}}
	for _, name := range names {
		var s zedServer
		if err := json.Unmarshal(settings.AgentServers[name], &s); err != nil {
			out.Skipped = append(out.Skipped, fmt.Sprintf("%s: not an agent server entry (%v)", name, err))
			continue
		}
		if s.Command == "" {
			s.Command = s.Path
		}
		if s.Command == "" {
			out.Skipped = append(out.Skipped, fmt.Sprintf("%s: no command (a built-in or extension agent: its settings stay in Zed)", name))
			continue
		}
		c := Custom{ID: Slug(name), Name: name, Command: s.Command, Args: s.Args}
		if Reserved(c.ID) {
			c.ID += "-zed"
		}
		envNames := make([]string, 0, len(s.Env))
		for k := range s.Env {
			envNames = append(envNames, k)
		}
		sort.Strings(envNames)
		for _, k := range envNames {
			v := EnvVar{Name: k, Value: s.Env[k]}
			if secretName.MatchString(k) && v.Value != "" {
				if out.Secrets[c.ID] == nil {
					out.Secrets[c.ID] = map[string]string{}
				}
				out.Secrets[c.ID][k], v.Value, v.Secret = v.Value, "", true
			}
			c.Env = append(c.Env, v)
		}
		if err := c.Validate(); err != nil {
			out.Skipped = append(out.Skipped, fmt.Sprintf("%s: %s", name, strings.TrimPrefix(err.Error(), "agent ")))
			continue
		}
		out.Agents = append(out.Agents, c)
	}
	parseZedMCP(settings.ContextServers, &out)
	return out, nil
}
