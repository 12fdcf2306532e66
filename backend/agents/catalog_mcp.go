package agents

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"agentdesk/backend/acp/schema"
)

// MCPServers returns the configured MCP servers, in the order they were added. Secret values
// are not in them.
func (c *Catalog) MCPServers() []MCPServer {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]MCPServer, len(c.cfg.MCPServers))
	for i, m := range c.cfg.MCPServers {
		out[i] = cloneMCP(m)
	}
	return out
}

// SaveMCPServer adds m, or replaces the server of the same name (renaming is delete and add),
// keeping the values given for its secret variables and headers in the SecretStore (a secret
// left out keeps its stored value). It fails, worded for the person, when m is not valid, a
// secret has no value, or agents.json cannot be written.
func (c *Catalog) SaveMCPServer(m MCPServer, values map[string]string) (MCPServer, error) {
	if c.file == nil {
		return m, fmt.Errorf("MCP servers cannot be saved: %v", c.Problem())
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	m.Name, m.Command, m.URL = strings.TrimSpace(m.Name), strings.TrimSpace(m.Command), strings.TrimSpace(m.URL)
	if m.Transport == schema.MCPStdio { // only the transport's own fields are kept
		m.URL, m.Headers = "", nil
	} else {
		m.Command, m.Args, m.Env = "", nil, nil
	}
	if err := m.Validate(); err != nil {
		return m, err
	}
	owner := MCPSecretOwner(m.Name)
	i := slices.IndexFunc(c.cfg.MCPServers, func(o MCPServer) bool { return o.Name == m.Name })
	var old MCPServer
	if i >= 0 {
		old = c.cfg.MCPServers[i]
	}
	vars := m.secretVars()
	if err := c.checkSecretsLocked(owner, vars, old.secretVars(), values); err != nil {
		return m, fmt.Errorf("MCP server %q: %w", m.Name, err)
	}
	m.setSecretVars(vars)
	stored, err := c.storeSecretsLocked(owner, vars, values)
	defer func() { c.tellStored(stored) }()
	if err != nil {
		return m, err
	}
	next := c.cfg
	next.MCPServers = slices.Clone(c.cfg.MCPServers)
	if i >= 0 {
		next.MCPServers[i] = m
	} else {
		next.MCPServers = append(next.MCPServers, m)
	}
	if _, err := c.writeLocked(next); err != nil {
		return m, err
	}
	for _, v := range old.secretVars() {
		if v.Secret && !secretIn(vars, v.Name) {
			_ = c.secrets.Delete(owner, v.Name)
		}
	}
	return cloneMCP(m), nil
}

// DeleteMCPServer removes the MCP server name and its secrets.
func (c *Catalog) DeleteMCPServer(name string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	i := slices.IndexFunc(c.cfg.MCPServers, func(o MCPServer) bool { return o.Name == name })
	if i < 0 {
		return fmt.Errorf("no MCP server %q", name)
	}
	old := c.cfg.MCPServers[i]
	next := c.cfg
	next.MCPServers = slices.Delete(slices.Clone(c.cfg.MCPServers), i, i+1)
	if _, err := c.writeLocked(next); err != nil {
		return err
	}
	for _, v := range old.secretVars() {
		if v.Secret {
			_ = c.secrets.Delete(MCPSecretOwner(name), v.Name)
		}
	}
	return nil
}

// MCPFor returns the MCP servers a session of agentID gets, as ACP takes them, secrets read
// (and taught to the masker): with names nil, those configured for it (MCPServer.For); else
// exactly the servers named (`agentdesk run --mcp NAME`), whatever their scope. It fails for a
// name no server has or a secret that cannot be read, naming which.
func (c *Catalog) MCPFor(agentID string, names []string) ([]MCPWire, error) {
	c.mu.Lock()
	servers := make([]MCPServer, 0, len(c.cfg.MCPServers))
	if names == nil {
		for _, m := range c.cfg.MCPServers {
			if m.For(agentID) {
				servers = append(servers, cloneMCP(m))
			}
		}
	} else {
		for _, n := range names {
			i := slices.IndexFunc(c.cfg.MCPServers, func(o MCPServer) bool { return o.Name == n })
			if i < 0 {
				c.mu.Unlock()
				return nil, fmt.Errorf("no MCP server %q: add it first (the agent editor's MCP servers)", n)
			}
			servers = append(servers, cloneMCP(c.cfg.MCPServers[i]))
		}
	}
	c.mu.Unlock()
	out := make([]MCPWire, 0, len(servers))
	for _, m := range servers {
		w, err := m.wire(func(name string) (string, error) { return c.secret(MCPSecretOwner(m.Name), name) })
		if err != nil {
			if errors.Is(err, ErrNoSecret) {
				return nil, fmt.Errorf("%w: give it again in the MCP server's settings", err)
			}
			return nil, err
		}
		out = append(out, w)
	}
	return out, nil
}

// secretVars is m's variables and headers together, the one list its secrets are kept by.
func (m MCPServer) secretVars() []EnvVar {
	return append(slices.Clone(m.Env), m.Headers...)
}

// setSecretVars writes vars (secretVars, values cleared) back into Env and Headers.
func (m *MCPServer) setSecretVars(vars []EnvVar) {
	n := len(m.Env)
	m.Env, m.Headers = slices.Clone(vars[:n]), slices.Clone(vars[n:])
}

func cloneMCP(m MCPServer) MCPServer {
	m.Args, m.Env, m.Headers, m.Agents = slices.Clone(m.Args), slices.Clone(m.Env), slices.Clone(m.Headers), slices.Clone(m.Agents)
	return m
}
