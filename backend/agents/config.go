package agents

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"agentdesk/backend/atomicfile"
)

// Custom is an agent the user defined (in the agent editor, or imported from Zed's settings).
// The values of its secret variables are not here: they are in a SecretStore, under its id.
type Custom struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	Command string   `json:"command"`
	Args    []string `json:"args,omitempty"`
	Env     []EnvVar `json:"env,omitempty"`
	// Folder is the project folder a session with this agent starts in, unless the user picks
	// another ("" for none).
	Folder string `json:"folder,omitempty"`
}

// EnvVar is one environment variable of a custom agent. A secret's Value is always "" here.
type EnvVar struct {
	Name   string `json:"name"`
	Value  string `json:"value,omitempty"`
	Secret bool   `json:"secret,omitempty"`
}

// Config is the content of agents.json: the custom agents, the names of the secrets an
// env_var login stored for an agent (any agent, presets included), whose values are in a
// SecretStore, and the MCP servers passed to the agents' sessions.
type Config struct {
	Agents       []Custom            `json:"agents"`
	LoginSecrets map[string][]string `json:"loginSecrets,omitempty"`
	MCPServers   []MCPServer         `json:"mcpServers,omitempty"`
	// Overrides are the user's changes to presets, one per preset id (overrides.go).
	Overrides []Override `json:"overrides,omitempty"`
}

// ConfigFile is agents.json. Writes are atomic (a temp file in the same folder, synced, then
// renamed) and leave the file mode 0600; a file that cannot be read is never overwritten
// without a copy kept aside first.
type ConfigFile struct {
	Path string
	now  func() time.Time
}

// DefaultConfigPath is $XDG_CONFIG_HOME/agentdesk/agents.json, else ~/.config/agentdesk/agents.json.
func DefaultConfigPath() (string, error) {
	dir, err := ConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "agents.json"), nil
}

// ConfigDir is agentdesk's configuration folder: $XDG_CONFIG_HOME/agentdesk, else ~/.config/agentdesk.
func ConfigDir() (string, error) {
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "agentdesk"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find the configuration folder: %w", err)
	}
	return filepath.Join(home, ".config", "agentdesk"), nil
}

// Load reads the file. A missing file is an empty Config and no error. A file that is not valid
// agents.json gives an error naming it and what is wrong, with an empty Config: agentdesk then
// runs with its presets, and the file stays as it is until the next Save.
func (f *ConfigFile) Load() (Config, error) {
	raw, err := os.ReadFile(f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return Config{}, nil
	}
	if err != nil {
		return Config{}, fmt.Errorf("read your custom agents from %s: %w", f.Path, err)
	}
	var c Config
	if err := json.Unmarshal(raw, &c); err != nil {
		return Config{}, fmt.Errorf("your custom agents file %s is not valid (%v): fix it by hand, or save an agent to start a new one (the old file is kept aside)", f.Path, err)
	}
	for _, a := range c.Agents {
		if err := a.Validate(); err != nil {
			return Config{}, fmt.Errorf("your custom agents file %s is not valid (%v): fix it by hand, or save an agent to start a new one (the old file is kept aside)", f.Path, err)
		}
	}
	for _, o := range c.Overrides {
		if err := o.Validate(); err != nil {
			return Config{}, fmt.Errorf("your custom agents file %s is not valid (%v): fix it by hand, or save an agent to start a new one (the old file is kept aside)", f.Path, err)
		}
	}
	return c, nil
}

// Save writes c atomically with mode 0600 (the folder is created 0700). When the file on disk
// cannot be loaded, it is first copied aside (agents.json.unreadable-TIME) and that path is
// returned, so the user can be told where their old file went.
func (f *ConfigFile) Save(c Config) (aside string, err error) {
	if err := os.MkdirAll(filepath.Dir(f.Path), 0o700); err != nil {
		return "", fmt.Errorf("save your custom agents: %w", err)
	}
	if _, loadErr := f.Load(); loadErr != nil {
		if old, readErr := os.ReadFile(f.Path); readErr == nil {
			now := time.Now
			if f.now != nil {
				now = f.now
			}
			aside = f.Path + ".unreadable-" + now().Format("20060102-150405")
			if err := os.WriteFile(aside, old, 0o600); err != nil {
				return "", fmt.Errorf("keep a copy of the unreadable %s before replacing it: %w", f.Path, err)
			}
		}
	}
	if c.Agents == nil {
		c.Agents = []Custom{}
	}
	raw, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return aside, fmt.Errorf("save your custom agents: %w", err)
	}
	if err := atomicfile.Write(f.Path, append(raw, '\n'), 0o600); err != nil {
		return aside, fmt.Errorf("save your custom agents to %s: %w", f.Path, err)
	}
	return aside, nil
}

var (
	envNameRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	idRe      = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
)

// Validate says what is wrong with a custom agent, in words for its editor.
func (c Custom) Validate() error {
	if strings.TrimSpace(c.Name) == "" {
		return errors.New("give the agent a name")
	}
	if !idRe.MatchString(c.ID) {
		return fmt.Errorf("agent id %q must be lower-case letters, digits and dashes", c.ID)
	}
	if strings.TrimSpace(c.Command) == "" {
		return fmt.Errorf("agent %q needs the command that starts it, e.g. \"gemini\" or \"/usr/local/bin/my-agent\"", c.Name)
	}
	return validateStart(c.Name, c.Command, c.Env, c.Folder)
}

// validateStart checks what a custom agent and a preset's override share: a command (when
// given) found on PATH or absolute, variables with valid names each listed once, and an
// absolute default folder (when given). name names the agent in the error.
func validateStart(name, command string, env []EnvVar, folder string) error {
	if strings.Contains(command, "/") && !filepath.IsAbs(expandHome(command)) {
		return fmt.Errorf("agent %q: the command %q must be a name found on PATH or an absolute path", name, command)
	}
	seen := map[string]bool{}
	for _, v := range env {
		if !envNameRe.MatchString(v.Name) {
			return fmt.Errorf("agent %q: %q is not an environment variable name (letters, digits and _, not starting with a digit)", name, v.Name)
		}
		if seen[v.Name] {
			return fmt.Errorf("agent %q: the variable %s is listed twice", name, v.Name)
		}
		seen[v.Name] = true
	}
	if folder != "" && !filepath.IsAbs(expandHome(folder)) {
		return fmt.Errorf("agent %q: the default folder %q must be an absolute path", name, folder)
	}
	return nil
}

// Slug makes an agent id from a name: "My Agent!" → "my-agent".
func Slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
			dash = false
		case b.Len() > 0 && !dash:
			b.WriteByte('-')
			dash = true
		}
	}
	s := strings.TrimSuffix(b.String(), "-")
	if s == "" {
		s = "agent"
	}
	return s
}

// Reserved reports whether id is taken by the Demo agent, a preset or --agent-cmd's agent.
func Reserved(id string) bool {
	if id == DemoID || IsCommandLineID(id) {
		return true
	}
	_, ok := PresetByID(id)
	return ok
}

// expandHome turns a leading ~ into the home folder.
func expandHome(p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, p[1:])
		}
	}
	return p
}
