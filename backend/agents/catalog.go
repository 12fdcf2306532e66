package agents

import (
	"errors"
	"fmt"
	"slices"
	"sync"
)

// Catalog is every agent the app and the CLI can start: the built-in ones (the Demo agent and
// the presets, each resolved at every List with what is installed of its package and the
// user's override of it) and the user's custom agents (agents.json),
// with the secrets of each (custom variables marked secret, and values an env_var login asked
// for). Every secret value it reads or writes is taught to the masker before it is handed on,
// so a value is masked before any agent has it. Safe for concurrent use; its methods may wait
// on the keyring (bounded by KeyringTimeout), never on an agent.
type Catalog struct {
	builtin []Agent
	base    []string // the agents' base environment; nil: this process's own
	file    *ConfigFile
	secrets SecretStore
	masker  *Masker
	stored  func(values []string) // OnStored's hook, or nil
	// installed lists the agents installed from the ACP registry (SetInstalled), or nil.
	installed InstalledAgents
	// presetInstalls is where the presets' packages are installed (SetPresetInstalls), or nil.
	presetInstalls PresetInstalls

	mu      sync.Mutex
	cfg     Config
	problem error // why agents.json could not be read, until the next save
}

// NewCatalog loads the custom agents from file (a file that cannot be read leaves the built-in
// agents only, and Problem says why). file nil means no custom agents are kept (tests).
func NewCatalog(builtin []Agent, base []string, file *ConfigFile, secrets SecretStore) *Catalog {
	c := &Catalog{builtin: builtin, base: base, file: file, secrets: secrets, masker: NewMasker()}
	if file != nil {
		c.cfg, c.problem = file.Load()
	}
	return c
}

// OpenCatalog is the catalog of the default files: agents.json and the secrets (keyring, else
// secrets.json) in ConfigDir. The agents installed from the registry are added by the caller
// (SetInstalled): backend/hub.Open, which every front end opens its agents with.
func OpenCatalog(builtin []Agent, base []string) (*Catalog, error) {
	dir, err := ConfigDir()
	if err != nil {
		return NewCatalog(builtin, base, nil, nil), err
	}
	path, _ := DefaultConfigPath()
	c := NewCatalog(builtin, base, &ConfigFile{Path: path}, OpenSecrets(dir))
	return c, c.Problem()
}

// OnStored sets the hook told the values Save and SetLoginSecrets have just stored (the window
// masks them in the history, which may hold them from before they were secrets). Call it
// before the catalog is shared; fn is called with the catalog's lock held and must not call
// the catalog.
func (c *Catalog) OnStored(fn func(values []string)) { c.stored = fn }

// Masker masks every secret value the catalog has read or stored.
func (c *Catalog) Masker() *Masker { return c.masker }

// Problem is why the custom agents could not be read, or nil.
func (c *Catalog) Problem() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.problem
}

// List is the built-in agents (the presets resolved with what is installed of them and the
// user's overrides: Preset.Resolve), then the ones installed from the registry, then the custom
// ones in the order they were added.
func (c *Catalog) List() []Agent {
	out := slices.Clone(c.builtin)
	installs := map[string]PresetInstall{}
	for _, a := range out { // read outside the lock: the records are files of their own
		if _, ok := PresetByID(a.ID); ok && c.presetInstalls != nil {
			installs[a.ID] = c.presetInstalls.Installed(a.ID)
		}
	}
	if c.installed != nil {
		out = append(out, c.installed.Agents(c.base)...)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, a := range out {
		if p, ok := PresetByID(a.ID); ok && a.Preset != nil { // a built-in preset, not a test's agent of the same id
			o, _ := c.overrideLocked(a.ID)
			out[i] = p.Resolve(c.base, o, installs[a.ID])
		}
	}
	for _, cu := range c.cfg.Agents {
		out = append(out, cu.Resolve(c.base))
	}
	return out
}

// Find returns the agent with id ready to start: its environment holds its secrets. A secret
// variable with no stored value is an error naming it.
func (c *Catalog) Find(id string) (Agent, error) {
	a, err := Find(c.List(), id)
	if err != nil {
		return a, err
	}
	if c.installed != nil {
		if err := c.installed.Check(id); err != nil {
			return a, err
		}
	}
	if a.Preset != nil && a.Version != "" && c.presetInstalls != nil {
		if err := c.presetInstalls.Check(id); err != nil {
			return a, err
		}
	}
	c.mu.Lock()
	vars0 := c.envLocked(id)
	login := slices.Clone(c.cfg.LoginSecrets[id])
	c.mu.Unlock()
	var vars []string
	for _, v := range vars0 {
		if !v.Secret {
			continue
		}
		val, err := c.secret(id, v.Name)
		if errors.Is(err, ErrNoSecret) {
			return a, fmt.Errorf("agent %q has no value for its secret %s: set it in the agent's settings", a.Name, v.Name)
		}
		if err != nil {
			return a, err
		}
		vars = append(vars, v.Name+"="+val)
	}
	for _, name := range login {
		if val, err := c.secret(id, name); err == nil {
			vars = append(vars, name+"="+val)
		} else if !errors.Is(err, ErrNoSecret) {
			return a, err
		}
	}
	if len(vars) > 0 {
		env := a.Env
		if env == nil {
			env = c.BaseEnv()
		}
		a.Env = WithEnv(env, vars)
	}
	return a, nil
}

// secret reads one value and teaches it to the masker.
func (c *Catalog) secret(agentID, name string) (string, error) {
	if c.secrets == nil {
		return "", ErrNoSecret
	}
	v, err := c.secrets.Get(agentID, name)
	if err == nil {
		c.masker.Add(v)
	}
	return v, err
}

// IsSet reports whether agentID has a stored value for the secret name (never the value).
func (c *Catalog) IsSet(agentID, name string) bool {
	_, err := c.secret(agentID, name)
	return err == nil
}

// LearnSecrets reads every stored secret into the masker, so exports of earlier sessions are
// masked too. It may take a while with a keyring: call it off the UI's path. It returns the
// first value that could not be read (a keyring that did not answer), after trying them all:
// the masker then knows fewer values than are stored.
func (c *Catalog) LearnSecrets() error {
	c.mu.Lock()
	var keys [][2]string
	for _, cu := range c.cfg.Agents {
		for _, v := range cu.Env {
			if v.Secret {
				keys = append(keys, [2]string{cu.ID, v.Name})
			}
		}
	}
	for _, o := range c.cfg.Overrides {
		for _, v := range o.Env {
			if v.Secret {
				keys = append(keys, [2]string{o.ID, v.Name})
			}
		}
	}
	for _, m := range c.cfg.MCPServers {
		for _, v := range m.secretVars() {
			if v.Secret {
				keys = append(keys, [2]string{MCPSecretOwner(m.Name), v.Name})
			}
		}
	}
	for id, names := range c.cfg.LoginSecrets {
		for _, n := range names {
			keys = append(keys, [2]string{id, n})
		}
	}
	c.mu.Unlock()
	var first error
	for _, k := range keys {
		if _, err := c.secret(k[0], k[1]); err != nil && !errors.Is(err, ErrNoSecret) && first == nil {
			first = err
		}
	}
	return first
}

// Custom returns the custom agent with id.
func (c *Catalog) Custom(id string) (Custom, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.customLocked(id)
}

// envLocked is the variables agentdesk sets for agent id: its custom agent's, else its
// override's (a preset), else none.
func (c *Catalog) envLocked(id string) []EnvVar {
	if cu, err := c.customLocked(id); err == nil {
		return cu.Env
	}
	o, _ := c.overrideLocked(id)
	return o.Env
}

func (c *Catalog) customLocked(id string) (Custom, error) {
	for _, cu := range c.cfg.Agents {
		if cu.ID == id {
			return cu, nil
		}
	}
	return Custom{}, fmt.Errorf("no custom agent %q (it may have been deleted)", id)
}

// BaseEnv is the agents' base environment: the login environment the catalog was given, else
// this process's own (AgentEnv). It holds no secret.
func (c *Catalog) BaseEnv() []string {
	if c.base != nil {
		return c.base
	}
	return AgentEnv(nil)
}

// Resolve is cu as an agent ready to list, on the catalog's base environment (its secrets are
// not read: Find adds them).
func (c *Catalog) Resolve(cu Custom) Agent { return cu.Resolve(c.base) }
