package agents

import (
	"fmt"
	"os"
	"regexp"
	"slices"
)

// Preset is a well-known ACP agent. One with an npm package runs from a copy of that package
// agentdesk installed at a pinned version (backend/registry.Presets installs it, checking the
// tarball's integrity and the command's sha256), never through npx: the same code at every
// start until the user updates it. Its own command (Command, on PATH) runs instead when the
// user chose it in the preset's override, and always for a preset without a package.
type Preset struct {
	ID, Name string
	Command  string   // the agent's own command, looked up on PATH
	Args     []string // the own command's arguments
	// Package is the npm package installed for it ("": none), pinned at Version, whose tarball
	// must have Integrity (npm's sha512 for that version, as published); Bin is the package's
	// command, run with PackageArgs.
	Package, Version, Integrity, Bin string
	PackageArgs                      []string
}

// presets are the well-known agents and the versions agentdesk pins: the one place a pin is
// written (docs/acp.md's table is generated from it by scripts/docgen). Moving a pin changes
// what Install and Update put in place, never what is installed already: the user updates it.
var presets = []Preset{
	{ID: "claude", Name: "Claude Code", Command: "claude-agent-acp",
		Package: "@agentclientprotocol/claude-agent-acp", Version: "0.101.0", Bin: "claude-agent-acp",
		Integrity: "sha512-c9YGBfdJrLcKiinRpXuDuibC+CRGqQpe9+ey/+TuuZ7ejHlVyEELbbvRkxHZN+Hf5XGecJD5i0kvP2opCseATA=="},
	{ID: "codex", Name: "Codex", Command: "codex-acp",
		Package: "@agentclientprotocol/codex-acp", Version: "2.6.0", Bin: "codex-acp",
		Integrity: "sha512-/PBsd0H6URy4bhXhAeXqwb7RqctbXfNceRihAh6nDmn5HJ873uzoHvHxF45YmeWfgOKKRrNRLZjYsket2a7EsQ=="},
	{ID: "gemini", Name: "Gemini CLI", Command: "gemini", Args: []string{"--acp"},
		Package: "@google/gemini-cli", Version: "0.61.0", Bin: "gemini", PackageArgs: []string{"--acp"},
		Integrity: "sha512-dbQ9A0qBtFJNi6XBkHvfZ6Azpn6PNgH/P8h2MZ67RLlX8hSAVjup39CRWqdRxZv7YXIuhrFaytr8y0jKnkoxnQ=="},
	{ID: "opencode", Name: "opencode", Command: "opencode", Args: []string{"acp"},
		Package: "opencode-ai", Version: "1.18.33", Bin: "opencode", PackageArgs: []string{"acp"},
		Integrity: "sha512-58P1ffLRXiAY4QeoABqUjqf6DEzm1ihpovvn9Ad+oOLbLiwK/rf88wruT9IATJ7AtNjmi8iA7pC8tN4o5y799Q=="},
	{ID: "qwen", Name: "Qwen Code", Command: "qwen", Args: []string{"--acp", "--experimental-skills"},
		Package: "@qwen-code/qwen-code", Version: "0.24.4", Bin: "qwen", PackageArgs: []string{"--acp", "--experimental-skills"},
		Integrity: "sha512-pmexy/Nj+BKd3Un1ogqGQE8V4GJn5B6N9PQOrU1GH+lMR29kn6Bgf6YdbZa8hNIoTmAKT1LTPK+P8TibZRPPVg=="},
	{ID: "copilot", Name: "GitHub Copilot", Command: "copilot", Args: []string{"--acp", "--stdio"},
		Package: "@github/copilot-language-server", Version: "1.539.0", Bin: "copilot-language-server", PackageArgs: []string{"--acp"},
		Integrity: "sha512-f1/9+ZK7iq3d11mXR9Cornkvl7hewqPhwbtYZI7YpkuYTOgDfWCdjcdVYnkMUvFATE4c7j6kAV78W9LTC9jf7A=="},
	{ID: "goose", Name: "Goose", Command: "goose", Args: []string{"acp"}},
	{ID: "kiro", Name: "Kiro", Command: "kiro-cli", Args: []string{"acp"}},
}

// Presets lists the presets, in the picker's order (a copy: callers may not change the pins).
func Presets() []Preset { return slices.Clone(presets) }

// PresetByID is the preset with id.
func PresetByID(id string) (Preset, bool) {
	i := slices.IndexFunc(presets, func(p Preset) bool { return p.ID == id })
	if i < 0 {
		return Preset{}, false
	}
	return presets[i], true
}

var exactVersionRe = regexp.MustCompile(`^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)

// ExactVersion reports whether v is a full semantic version ("1.2.3", "1.2.3-beta.1"): what an
// install pins. Tags ("latest"), ranges, partial versions and anything with a slash, a space or a
// leading dash are not, so a version can name neither a folder outside the install's nor an
// option of npm.
func ExactVersion(v string) bool { return len(v) <= 64 && exactVersionRe.MatchString(v) }

// PresetInstall is what is installed of a preset's package: its current version and the
// absolute path of its command ("" when nothing is).
type PresetInstall struct{ Version, Command string }

// PresetInstalls is where the presets' packages are installed (backend/registry.Presets).
type PresetInstalls interface {
	// Installed is the current install of preset id, read from its record (no file is hashed).
	Installed(id string) PresetInstall
	// Check says why the installed command of preset id must not start (it changed since it was
	// installed), or nil. Find calls it before every start of an installed preset.
	Check(id string) error
}

// SetPresetInstalls tells the catalog where the presets' packages are installed (backend/hub.Open
// does). Call it before the catalog is shared. Without it no preset package counts as installed.
func (c *Catalog) SetPresetInstalls(src PresetInstalls) { c.presetInstalls = src }

// PresetState is a preset as the picker, the editor and `agentdesk agents` show it: computed
// here, once, by Preset.Resolve.
type PresetState struct {
	Package string `json:"package,omitempty"` // the npm package agentdesk installs, "" if none
	// Pinned is the version Install and Update put in place: the override's, else this build's
	// pin ("" for a preset without a package).
	Pinned string `json:"pinned,omitempty"`
	// Installable: not installed yet, and agentdesk can install Package at Pinned.
	Installable bool `json:"installable,omitempty"`
	// UpdateTo is the version an Update moves to (Pinned, when another version is installed), else "".
	UpdateTo string `json:"updateTo,omitempty"`
	// Own: it starts the user's own command (chosen in the override, or it has no package).
	Own bool `json:"own,omitempty"`
	// OwnFound is the preset's own command found on PATH while its package is not installed
	// (the install offer proposes it as the other choice), else "".
	OwnFound   string `json:"ownFound,omitempty"`
	Overridden bool   `json:"overridden,omitempty"` // the user has an override for it
}

// Resolve is the preset ready to list on base (nil: this process's environment) with the
// user's override o (zero: none) and what is installed of its package (in; zero: nothing).
// It runs the user's own command when o.Command is set or it has no package (looked up on the
// PATH of base with o's plain variables), else the installed copy of its package; not
// installed, it is unavailable and says how to install it. o's arguments, when set, replace
// the preset's. Secrets are not read here: Catalog.Find adds them.
func (p Preset) Resolve(base []string, o Override, in PresetInstall) Agent {
	env := base
	if plain := plainVars(o.Env); len(plain) > 0 {
		if env == nil {
			env = os.Environ()
		}
		env = WithEnv(env, plain)
	}
	path := os.Getenv("PATH")
	if env != nil {
		path = Getenv(env, "PATH")
	}
	st := &PresetState{Package: p.Package, Pinned: p.Version, Overridden: o.ID != ""}
	if o.Version != "" && p.Package != "" {
		st.Pinned = o.Version
	}
	a := Agent{ID: p.ID, Name: p.Name, Env: env, Folder: o.Folder, Preset: st}
	args := func(def []string) []string {
		if o.Args != nil {
			return o.Args
		}
		return def
	}
	switch {
	case o.Command != "" || p.Package == "":
		st.Own = true
		a.Command, a.Args = p.Command, args(p.Args)
		if o.Command != "" {
			a.Command = expandHome(o.Command)
		}
		if cmd, err := LookPath(a.Command, path); err == nil {
			a.Command, a.Available = cmd, true
		} else {
			a.Reason = fmt.Sprintf("command %q not found on PATH", a.Command)
		}
	case in.Command != "":
		a.Command, a.Args, a.Version = in.Command, args(p.PackageArgs), in.Version
		if in.Version != st.Pinned {
			st.UpdateTo = st.Pinned
		}
		if _, err := LookPath("node", path); err != nil {
			a.Reason = "needs Node.js: node is not on PATH"
		} else {
			a.Available = true
		}
	default:
		st.Installable = true
		if own, err := LookPath(p.Command, path); err == nil {
			st.OwnFound = own
		}
		a.Reason = fmt.Sprintf("not installed: `agentdesk agents install %s` installs %s %s", p.ID, p.Package, st.Pinned)
		if st.OwnFound != "" {
			a.Reason += fmt.Sprintf(", or choose your own %s in its override", p.Command)
		}
	}
	return a
}

// plainVars is vars' non-secret variables as NAME=VALUE.
func plainVars(vars []EnvVar) []string {
	var out []string
	for _, v := range vars {
		if !v.Secret {
			out = append(out, v.Name+"="+v.Value)
		}
	}
	return out
}
