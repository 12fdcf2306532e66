package agents

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"agentdesk/backend/acp/schema"
)

// MCPServer is an MCP server the user configured (agents.json "mcpServers"), passed to agents in
// session/new, load and resume. Agents empty means every agent, else only those ids. A secret
// variable's or header's Value is always "" here: the value is in the SecretStore under
// MCPSecretOwner(Name).
type MCPServer struct {
	Name      string   `json:"name"`
	Transport string   `json:"transport"` // schema.MCPStdio, schema.MCPHTTP or schema.MCPSSE
	Command   string   `json:"command,omitempty"`
	Args      []string `json:"args,omitempty"`
	Env       []EnvVar `json:"env,omitempty"`
	URL       string   `json:"url,omitempty"`
	Headers   []EnvVar `json:"headers,omitempty"`
	Agents    []string `json:"agents,omitempty"`
	Disabled  bool     `json:"disabled,omitempty"`
}

// MCPSecretOwner is the SecretStore owner of MCP server name's secret values (agent ids never
// hold a colon, so they cannot collide).
func MCPSecretOwner(name string) string { return "mcp:" + name }

// For reports whether the server is passed to agentID's sessions by default.
func (m MCPServer) For(agentID string) bool {
	if m.Disabled {
		return false
	}
	if len(m.Agents) == 0 {
		return true
	}
	for _, id := range m.Agents {
		if id == agentID {
			return true
		}
	}
	return false
}

// Validate says what is wrong with m, worded for the person who configured it.
func (m MCPServer) Validate() error {
	if strings.TrimSpace(m.Name) == "" || strings.ContainsAny(m.Name, "\x00\n") || len(m.Name) > 128 {
		return fmt.Errorf("give the MCP server a name (one line, at most 128 characters)")
	}
	switch m.Transport {
	case schema.MCPStdio:
		if strings.TrimSpace(m.Command) == "" {
			return fmt.Errorf("MCP server %q needs the command that starts it", m.Name)
		}
		if strings.Contains(m.Command, "/") && !filepath.IsAbs(expandHome(m.Command)) {
			return fmt.Errorf("MCP server %q: the command %q must be a name found on PATH or an absolute path", m.Name, m.Command)
		}
		if err := checkVars(m.Name, "variable", m.Env, envNameRe.MatchString); err != nil {
			return err
		}
	case schema.MCPHTTP, schema.MCPSSE:
		u, err := url.Parse(m.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("MCP server %q: %q is not an http or https URL", m.Name, m.URL)
		}
		if err := checkVars(m.Name, "header", m.Headers, headerName); err != nil {
			return err
		}
	default:
		return fmt.Errorf("MCP server %q: transport %q is not stdio, http or sse", m.Name, m.Transport)
	}
	return nil
}

func checkVars(server, what string, vars []EnvVar, valid func(string) bool) error {
	seen := map[string]bool{}
	for _, v := range vars {
		if !valid(v.Name) {
			return fmt.Errorf("MCP server %q: %q is not a %s name", server, v.Name, what)
		}
		if seen[v.Name] {
			return fmt.Errorf("MCP server %q: the %s %s is listed twice", server, what, v.Name)
		}
		seen[v.Name] = true
	}
	return nil
}

// headerName reports an HTTP header name (RFC 9110 token characters).
func headerName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r > 0x7e || r <= ' ' || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r) {
			return false
		}
	}
	return true
}

// MCPWire is one MCP server as ACP's session/new takes it (mcpServers[]), secrets filled in:
// Transport says which variant, JSON the object itself. It holds secret values: it goes to the
// agent only, never to a log or the page.
type MCPWire struct {
	Name      string
	Transport string
	JSON      json.RawMessage
}

type nameValue struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// wire builds the ACP object of m, with value(name) giving each secret's value.
func (m MCPServer) wire(value func(name string) (string, error)) (MCPWire, error) {
	pairs := func(vars []EnvVar) ([]nameValue, error) {
		out := make([]nameValue, 0, len(vars)) // ACP requires the arrays, even empty
		for _, v := range vars {
			val := v.Value
			if v.Secret {
				var err error
				if val, err = value(v.Name); err != nil {
					return nil, fmt.Errorf("MCP server %q: the secret %s: %w", m.Name, v.Name, err)
				}
			}
			out = append(out, nameValue{v.Name, val})
		}
		return out, nil
	}
	var obj any
	switch m.Transport {
	case schema.MCPStdio:
		env, err := pairs(m.Env)
		if err != nil {
			return MCPWire{}, err
		}
		args := m.Args
		if args == nil {
			args = []string{}
		}
		obj = struct {
			Name    string      `json:"name"`
			Command string      `json:"command"`
			Args    []string    `json:"args"`
			Env     []nameValue `json:"env"`
		}{m.Name, expandHome(m.Command), args, env}
	default:
		headers, err := pairs(m.Headers)
		if err != nil {
			return MCPWire{}, err
		}
		obj = struct {
			Type    string      `json:"type"`
			Name    string      `json:"name"`
			URL     string      `json:"url"`
			Headers []nameValue `json:"headers"`
		}{m.Transport, m.Name, m.URL, headers}
	}
	raw, err := json.Marshal(obj)
	return MCPWire{Name: m.Name, Transport: m.Transport, JSON: raw}, err
}
