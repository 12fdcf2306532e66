package agents

import (
	"fmt"
	"slices"
	"strings"
)

// Override is the user's change to a preset, kept in agents.json beside the custom agents and
// stored like one (its secret variables' values in the SecretStore, under the preset's id).
// Each field left empty keeps the preset's own.
type Override struct {
	ID string `json:"id"` // the preset's
	// Command, when set, starts the user's own command (a name on PATH, or an absolute path)
	// instead of the copy of the preset's package agentdesk installed.
	Command string `json:"command,omitempty"`
	// Args replace the preset's arguments; nil keeps them (an empty list: no arguments).
	Args   []string `json:"args"`
	Env    []EnvVar `json:"env,omitempty"`
	Folder string   `json:"folder,omitempty"` // the default project folder
	// Version is the package version to install instead of this build's pin (an exact version).
	Version string `json:"version,omitempty"`
}

// Validate says what is wrong with an override, in words for its editor. A version must be an
// exact one (ExactVersion): never a tag, a range, or anything that could be a path or an option.
func (o Override) Validate() error {
	p, ok := PresetByID(o.ID)
	if !ok {
		return fmt.Errorf("%q is not a preset: only presets are overridden", o.ID)
	}
	if o.Version != "" {
		if p.Package == "" {
			return fmt.Errorf("%s has no package agentdesk installs: it has no version to choose", p.Name)
		}
		if !ExactVersion(o.Version) {
			return fmt.Errorf("%s: %q is not an exact version such as %s (no tag, range, path or option)", p.Name, o.Version, p.Version)
		}
	}
	return validateStart(p.Name, o.Command, o.Env, o.Folder)
}

// Override returns the user's override of preset id, or ok false when there is none.
func (c *Catalog) Override(id string) (o Override, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.overrideLocked(id)
}

func (c *Catalog) overrideLocked(id string) (Override, bool) {
	i := slices.IndexFunc(c.cfg.Overrides, func(o Override) bool { return o.ID == id })
	if i < 0 {
		return Override{}, false
	}
	return c.cfg.Overrides[i], true
}

// SaveOverride stores o as the override of its preset, replacing any earlier one, with values
// for its secret variables as Save does for a custom agent (name → value; a secret not in
// values keeps its stored value and must have one). Secrets it no longer has are deleted,
// except those a login stored under the same name. It returns, when agents.json was
// unreadable, where the old file was kept.
func (c *Catalog) SaveOverride(o Override, values map[string]string) (string, error) {
	if c.file == nil {
		return "", fmt.Errorf("overrides cannot be saved: %v", c.Problem())
	}
	o.Command, o.Folder, o.Version = strings.TrimSpace(o.Command), strings.TrimSpace(o.Folder), strings.TrimSpace(o.Version)
	for i := range o.Env {
		o.Env[i].Name = strings.TrimSpace(o.Env[i].Name)
	}
	if err := o.Validate(); err != nil {
		return "", err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	old, _ := c.overrideLocked(o.ID)
	kept := slices.Clone(old.Env) // a value a login stored under the name counts as stored
	for _, n := range c.cfg.LoginSecrets[o.ID] {
		kept = append(kept, EnvVar{Name: n, Secret: true})
	}
	if err := c.checkSecretsLocked(o.ID, o.Env, kept, values); err != nil {
		return "", err
	}
	stored, err := c.storeSecretsLocked(o.ID, o.Env, values)
	defer func() { c.tellStored(stored) }()
	if err != nil {
		return "", err
	}
	next := c.cfg
	next.Overrides = slices.DeleteFunc(slices.Clone(c.cfg.Overrides), func(x Override) bool { return x.ID == o.ID })
	next.Overrides = append(next.Overrides, o)
	aside, err := c.writeLocked(next)
	if err != nil {
		return aside, err
	}
	c.dropSecretsLocked(o.ID, old.Env, o.Env)
	return aside, nil
}

// ResetOverride removes the override of preset id and its secrets (a login's are kept): the
// preset starts as it ships again. Resetting a preset with no override is not an error.
func (c *Catalog) ResetOverride(id string) error {
	if _, ok := PresetByID(id); !ok {
		return fmt.Errorf("%q is not a preset", id)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	old, ok := c.overrideLocked(id)
	if !ok {
		return nil
	}
	if c.file == nil {
		return fmt.Errorf("overrides cannot be saved: %v", c.problem)
	}
	next := c.cfg
	next.Overrides = slices.DeleteFunc(slices.Clone(c.cfg.Overrides), func(x Override) bool { return x.ID == id })
	if _, err := c.writeLocked(next); err != nil {
		return err
	}
	c.dropSecretsLocked(id, old.Env, nil)
	return nil
}

// dropSecretsLocked deletes the stored values of old's secrets that now (the saved variables)
// no longer holds as secrets and no login of owner stored.
func (c *Catalog) dropSecretsLocked(owner string, old, now []EnvVar) {
	for _, v := range old {
		if v.Secret && !secretIn(now, v.Name) && !slices.Contains(c.cfg.LoginSecrets[owner], v.Name) {
			_ = c.secrets.Delete(owner, v.Name)
		}
	}
}
