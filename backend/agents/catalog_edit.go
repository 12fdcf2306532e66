package agents

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The catalog's changes: custom agents saved, deleted and imported, and the secrets of a login.
// Each stores secret values first, then writes agents.json, so the file never names a secret
// whose value could not be kept.

// Save adds cu (ID "": a new agent, its id made from its name) or replaces the custom agent
// with its id, and stores values for its secret variables (name → value; a secret variable
// not in values keeps its stored value, and must have one; "" clears it, which is refused). Secrets it no longer has are
// deleted. It returns the saved agent and, when agents.json was unreadable, where the old file
// was kept.
func (c *Catalog) Save(cu Custom, values map[string]string) (Custom, string, error) {
	if c.file == nil {
		return cu, "", fmt.Errorf("custom agents cannot be saved: %v", c.Problem())
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	cu.Name, cu.Command = strings.TrimSpace(cu.Name), strings.TrimSpace(cu.Command)
	old, exists := Custom{}, false
	if cu.ID == "" {
		cu.ID = c.freeIDLocked(Slug(cu.Name))
	} else if Reserved(cu.ID) {
		return cu, "", fmt.Errorf("%q is a built-in agent's id: choose another", cu.ID)
	} else {
		old, _ = c.customLocked(cu.ID)
		exists = old.ID != ""
	}
	for i := range cu.Env {
		cu.Env[i].Name = strings.TrimSpace(cu.Env[i].Name)
	}
	if err := cu.Validate(); err != nil {
		return cu, "", err
	}
	var oldEnv []EnvVar
	if exists {
		oldEnv = old.Env
	}
	if err := c.checkSecretsLocked(cu.ID, cu.Env, oldEnv, values); err != nil {
		return cu, "", err
	}
	stored, err := c.storeSecretsLocked(cu.ID, cu.Env, values)
	defer func() { c.tellStored(stored) }()
	if err != nil {
		return cu, "", err
	}
	next := c.cfg
	next.Agents = slices.Clone(c.cfg.Agents)
	if i := slices.IndexFunc(next.Agents, func(a Custom) bool { return a.ID == cu.ID }); i >= 0 {
		next.Agents[i] = cu
	} else {
		next.Agents = append(next.Agents, cu)
	}
	aside, err := c.writeLocked(next)
	if err != nil {
		return cu, aside, err
	}
	c.dropSecretsLocked(cu.ID, old.Env, cu.Env)
	return cu, aside, nil
}

// Delete removes the custom agent id and its secrets.
func (c *Catalog) Delete(id string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	old, err := c.customLocked(id)
	if err != nil {
		return err
	}
	next := c.cfg
	next.Agents = slices.DeleteFunc(slices.Clone(c.cfg.Agents), func(a Custom) bool { return a.ID == id })
	login := next.LoginSecrets[id]
	if login != nil {
		next.LoginSecrets = cloneLogin(next.LoginSecrets)
		delete(next.LoginSecrets, id)
	}
	if _, err := c.writeLocked(next); err != nil {
		return err
	}
	for _, v := range old.Env {
		if v.Secret {
			_ = c.secrets.Delete(id, v.Name)
		}
	}
	for _, n := range login {
		_ = c.secrets.Delete(id, n)
	}
	return nil
}

// SetLoginSecrets stores the values an env_var login asked for as secrets of agent id (a
// preset or a custom agent); Find puts them in its environment from then on.
func (c *Catalog) SetLoginSecrets(id string, values map[string]string) error {
	var unknown *UnknownError
	if _, err := Find(c.List(), id); errors.As(err, &unknown) { // an agent not installed yet may keep secrets
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.secrets == nil || c.file == nil {
		return fmt.Errorf("secrets cannot be kept: %v", c.problem)
	}
	names := slices.Clone(c.cfg.LoginSecrets[id])
	var stored []string
	defer func() { c.tellStored(stored) }()
	for name, val := range values {
		c.masker.Add(val)
		if err := c.secrets.Set(id, name, val); err != nil {
			return fmt.Errorf("could not keep %s in %s: %w", name, c.secrets.Where(), err)
		}
		stored = append(stored, val)
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	next := c.cfg
	next.LoginSecrets = cloneLogin(c.cfg.LoginSecrets)
	next.LoginSecrets[id] = names
	_, err := c.writeLocked(next)
	return err
}

// Import adds the agents and MCP servers of Zed's settings text (replacing custom agents with the
// same id, servers with the same name) and stores their secret values. It returns the names added and what was skipped, with reasons.
func (c *Catalog) Import(text string) (added, skipped []string, err error) {
	z, err := ParseZed(text)
	if err != nil {
		return nil, nil, err
	}
	for _, cu := range z.Agents {
		if _, _, err := c.Save(cu, z.Secrets[cu.ID]); err != nil {
			skipped = append(skipped, fmt.Sprintf("%s: %v", cu.Name, err))
			continue
		}
		added = append(added, cu.Name)
	}
	for _, m := range z.MCPServers {
		if _, err := c.SaveMCPServer(m, z.MCPSecrets[m.Name]); err != nil {
			skipped = append(skipped, fmt.Sprintf("MCP server %s: %v", m.Name, err))
			continue
		}
		added = append(added, "MCP server "+m.Name)
	}
	return added, append(skipped, z.Skipped...), nil
}

// writeLocked saves next to agents.json and makes it the catalog's config.
func (c *Catalog) writeLocked(next Config) (string, error) {
	aside, err := c.file.Save(next)
	if err != nil {
		return aside, err
	}
	c.cfg, c.problem = next, nil
	return aside, nil
}

func (c *Catalog) isSetLocked(id, name string) bool {
	_, err := c.secret(id, name)
	return err == nil
}

// freeIDLocked is base, or base-2, base-3... whichever no agent has.
func (c *Catalog) freeIDLocked(base string) string {
	taken := func(id string) bool {
		_, err := c.customLocked(id)
		return Reserved(id) || err == nil
	}
	id := base
	for n := 2; taken(id); n++ {
		id = base + "-" + strconv.Itoa(n)
	}
	return id
}

// secretIn reports whether vars holds name as a secret.
func secretIn(vars []EnvVar, name string) bool {
	return slices.ContainsFunc(vars, func(v EnvVar) bool { return v.Name == name && v.Secret })
}

// checkSecretsLocked clears the values of vars' secrets (they are kept apart) and checks that
// each has one: given in values (long enough to be masked), or already stored for owner when
// old (the saved variables; nil for something new) held it as a secret too.
func (c *Catalog) checkSecretsLocked(owner string, vars, old []EnvVar, values map[string]string) error {
	for i, v := range vars {
		if !v.Secret {
			continue
		}
		vars[i].Value = ""
		val, given := values[v.Name]
		kept := !given && secretIn(old, v.Name) && c.isSetLocked(owner, v.Name)
		if val == "" && !kept {
			return fmt.Errorf("give a value for the secret %s", v.Name)
		}
		if given && len(val) < MinSecretLen {
			return fmt.Errorf("the secret %s is too short to be hidden reliably (%d characters at least): use a plain variable for it", v.Name, MinSecretLen)
		}
	}
	return nil
}

// storeSecretsLocked keeps the values given for vars' secrets under owner, masker first, and
// returns those it stored (for tellStored, also on error).
func (c *Catalog) storeSecretsLocked(owner string, vars []EnvVar, values map[string]string) ([]string, error) {
	var stored []string
	for _, v := range vars {
		if val, ok := values[v.Name]; ok && v.Secret {
			c.masker.Add(val)
			if err := c.secrets.Set(owner, v.Name, val); err != nil {
				return stored, fmt.Errorf("could not keep the secret %s in %s: %w", v.Name, c.secrets.Where(), err)
			}
			stored = append(stored, val)
		}
	}
	return stored, nil
}

func cloneLogin(m map[string][]string) map[string][]string {
	out := make(map[string][]string, len(m))
	for k, v := range m {
		out[k] = slices.Clone(v)
	}
	return out
}

// tellStored hands the values just stored to the stored hook, if any. A value is told even
// when saving the agent failed afterwards: it is in the keyring, and in the masker, either way.
func (c *Catalog) tellStored(values []string) {
	if c.stored != nil && len(values) > 0 {
		c.stored(values)
	}
}
