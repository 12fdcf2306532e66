package agents

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"agentdesk/backend/acp/schema"
)

// zedContextServer is one entry of Zed's context_servers setting: a command (a string, or in
// older releases {path, args, env}) or a remote server (url, headers). Extension-provided
// servers have neither and are skipped.
type zedContextServer struct {
	Command json.RawMessage   `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
	Enabled *bool             `json:"enabled"`
}

// parseZedMCP reads Zed's context_servers into MCP servers for every agent; variables and
// headers named like credentials are secrets, their values returned apart (by server name).
func parseZedMCP(servers map[string]json.RawMessage, out *ZedImport) {
	names := make([]string, 0, len(servers))
	for n := range servers {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		var s zedContextServer
		if err := json.Unmarshal(servers[name], &s); err != nil {
			out.Skipped = append(out.Skipped, fmt.Sprintf("MCP server %s: not a context server entry (%v)", name, err))
			continue
		}
		m := MCPServer{Name: name, Disabled: s.Enabled != nil && !*s.Enabled}
		secrets := map[string]string{}
		vars := func(kv map[string]string) []EnvVar {
			keys := make([]string, 0, len(kv))
			for k := range kv {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			var vs []EnvVar
			for _, k := range keys {
				v := EnvVar{Name: k, Value: kv[k]}
				if secretName.MatchString(k) && v.Value != "" {
					secrets[k], v.Value, v.Secret = v.Value, "", true
				}
				vs = append(vs, v)
			}
			return vs
		}
		var cmd string
		if json.Unmarshal(s.Command, &cmd) != nil {
			var old struct {
				Path string            `json:"path"`
				Args []string          `json:"args"`
				Env  map[string]string `json:"env"`
			}
			if json.Unmarshal(s.Command, &old) == nil && old.Path != "" {
				cmd, s.Args, s.Env = old.Path, old.Args, old.Env
			}
		}
		switch {
		case strings.TrimSpace(cmd) != "":
			m.Transport, m.Command, m.Args, m.Env = schema.MCPStdio, cmd, s.Args, vars(s.Env)
		case s.URL != "":
			m.Transport, m.URL, m.Headers = schema.MCPHTTP, s.URL, vars(s.Headers)
		default:
			out.Skipped = append(out.Skipped, fmt.Sprintf("MCP server %s: no command or url (an extension's server: its settings stay in Zed)", name))
			continue
		}
		if err := m.Validate(); err != nil {
			out.Skipped = append(out.Skipped, err.Error())
			continue
		}
		out.MCPServers = append(out.MCPServers, m)
		if len(secrets) > 0 {
			if out.MCPSecrets == nil {
				out.MCPSecrets = map[string]map[string]string{}
			}
			out.MCPSecrets[name] = secrets
		}
	}
}
