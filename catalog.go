package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"agentdesk/backend/acp"
	"agentdesk/backend/agents"
)

// catalog is every agent the app and the CLI can start: the built-in ones (the Demo agent and
// the presets, resolved once on the login PATH) and the user's custom agents (agents.json),
// with the secrets of each (custom variables marked secret, and values an env_var login asked
// for). Every secret value it reads or writes is taught to the masker before it is handed on,
// so a value is masked before any agent has it. Safe for concurrent use; its methods may wait
// on the keyring (bounded by agents.KeyringTimeout), never on an agent.
type catalog struct {
	builtin []agents.Agent
	base    []string // the agents' base environment; nil: this process's own
	file    *agents.ConfigFile
	secrets agents.SecretStore
	masker  *agents.Masker
	// stored, if set, is told the values Save and SetLoginSecrets have just stored (the app
	// masks them in the history, which may hold them from before they were secrets). Set it
	// before the catalog is shared; it is called with the catalog's lock held and must not
	// call the catalog.
	stored func(values []string)

	mu      sync.Mutex
	cfg     agents.Config
	problem error // why agents.json could not be read, until the next save
}

// newCatalog loads the custom agents from file (a file that cannot be read leaves the built-in
// agents only, and Problem says why). file nil means no custom agents are kept (tests).
func newCatalog(builtin []agents.Agent, base []string, file *agents.ConfigFile, secrets agents.SecretStore) *catalog {
	c := &catalog{builtin: builtin, base: base, file: file, secrets: secrets, masker: agents.NewMasker()}
	if file != nil {
		c.cfg, c.problem = file.Load()
	}
	return c
}

// openCatalog is the catalog of the default files: agents.json and the secrets (keyring, else
// secrets.json) in agents.ConfigDir.
func openCatalog(builtin []agents.Agent, base []string) (*catalog, error) {
	dir, err := agents.ConfigDir()
	if err != nil {
		return newCatalog(builtin, base, nil, nil), err
	}
	path, _ := agents.DefaultConfigPath()
	c := newCatalog(builtin, base, &agents.ConfigFile{Path: path}, agents.OpenSecrets(dir))
	return c, c.Problem()
}

// Masker masks every secret value the catalog has read or stored.
func (c *catalog) Masker() *agents.Masker { return c.masker }

// Problem is why the custom agents could not be read, or nil.
func (c *catalog) Problem() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.problem
}

// List is the built-in agents, then the custom ones in the order they were added.
func (c *catalog) List() []agents.Agent {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := slices.Clone(c.builtin)
	for _, cu := range c.cfg.Agents {
		out = append(out, cu.Resolve(c.base))
	}
	return out
}

// Find returns the agent with id ready to start: its environment holds its secrets. A secret
// variable with no stored value is an error naming it.
func (c *catalog) Find(id string) (agents.Agent, error) {
	a, err := agents.Find(c.List(), id)
	if err != nil {
		return a, err
	}
	c.mu.Lock()
	custom, _ := c.customLocked(id)
	login := slices.Clone(c.cfg.LoginSecrets[id])
	c.mu.Unlock()
	var vars []string
	for _, v := range custom.Env {
		if !v.Secret {
			continue
		}
		val, err := c.secret(id, v.Name)
		if errors.Is(err, agents.ErrNoSecret) {
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
		} else if !errors.Is(err, agents.ErrNoSecret) {
			return a, err
		}
	}
	if len(vars) > 0 {
		env := a.Env
		if env == nil {
			env = c.baseEnv()
		}
		a.Env = agents.WithEnv(env, vars)
	}
	return a, nil
}

// secret reads one value and teaches it to the masker.
func (c *catalog) secret(agentID, name string) (string, error) {
	if c.secrets == nil {
		return "", agents.ErrNoSecret
	}
	v, err := c.secrets.Get(agentID, name)
	if err == nil {
		c.masker.Add(v)
	}
	return v, err
}

// IsSet reports whether agentID has a stored value for the secret name (never the value).
func (c *catalog) IsSet(agentID, name string) bool {
	_, err := c.secret(agentID, name)
	return err == nil
}

// LearnSecrets reads every stored secret into the masker, so exports of earlier sessions are
// masked too. It may take a while with a keyring: call it off the UI's path. It returns the
// first value that could not be read (a keyring that did not answer), after trying them all:
// the masker then knows fewer values than are stored.
func (c *catalog) LearnSecrets() error {
	c.mu.Lock()
	var keys [][2]string
	for _, cu := range c.cfg.Agents {
		for _, v := range cu.Env {
			if v.Secret {
				keys = append(keys, [2]string{cu.ID, v.Name})
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
		if _, err := c.secret(k[0], k[1]); err != nil && !errors.Is(err, agents.ErrNoSecret) && first == nil {
			first = err
		}
	}
	return first
}

// Custom returns the custom agent with id.
func (c *catalog) Custom(id string) (agents.Custom, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.customLocked(id)
}

func (c *catalog) customLocked(id string) (agents.Custom, error) {
	for _, cu := range c.cfg.Agents {
		if cu.ID == id {
			return cu, nil
		}
	}
	return agents.Custom{}, fmt.Errorf("no custom agent %q (it may have been deleted)", id)
}

// baseEnv is the agents' base environment.
func (c *catalog) baseEnv() []string {
	if c.base != nil {
		return c.base
	}
	return agents.AgentEnv(nil)
}

// maskSnapshot returns snap with every secret value m knows masked, in every field (entries'
// text, tool content, errors, stderr). A snapshot that cannot be re-read after masking (it
// always can: the mask is plain text inside JSON strings) is returned with its text fields
// masked only.
func maskSnapshot(m *agents.Masker, snap acp.Snapshot) acp.Snapshot {
	out, ok := maskJSON(m, snap)
	if !ok {
		for i := range snap.Entries {
			snap.Entries[i].Text = m.Mask(snap.Entries[i].Text)
		}
		return snap
	}
	return out
}

// maskJSON returns v with every secret value m knows masked in all its strings, through its
// JSON: encoded, masked, decoded again (v itself when there was nothing to mask, without
// encoding it when m knows no value). ok is false when the masked JSON could not be decoded,
// which the caller answers by masking the fields it knows.
func maskJSON[T any](m *agents.Masker, v T) (out T, ok bool) {
	if m.Empty() {
		return v, true
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return v, true // nothing was encoded, so nothing can leak through it
	}
	masked := m.MaskBytes(raw)
	if bytes.Equal(masked, raw) {
		return v, true
	}
	if json.Unmarshal(masked, &out) != nil {
		return v, false
	}
	return out, true
}

// maskSnippet masks a search snippet, whose match markers ([[ ]]) may cut a secret value into
// pieces: when the text without them holds a value, that text is returned masked, unmarked.
func maskSnippet(m *agents.Masker, snippet string) string {
	plain := strings.NewReplacer("[[", "", "]]", "").Replace(snippet)
	if masked := m.Mask(plain); masked != plain {
		return masked
	}
	return snippet
}
