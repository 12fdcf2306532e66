package registry

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"agentdesk/backend/atomicfile"
)

var (
	idRe      = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
	versionRe = regexp.MustCompile(`^[0-9A-Za-z][0-9A-Za-z.+_-]*$`)
)

// Install is one installed version of an agent, as its manifest records it.
type Install struct {
	ID      string            `json:"id"`
	Name    string            `json:"name"`
	Version string            `json:"version"`
	Kind    string            `json:"kind"` // "npx" or "binary"
	Cmd     string            `json:"cmd"`  // the command, relative to the install folder
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Package string            `json:"package,omitempty"` // npx: the exact spec installed, pkg@X.Y.Z
	Archive string            `json:"archive,omitempty"` // binary: the archive's address
	// ArchiveSHA256 is the downloaded archive's sha256 (binary entries), whether or not the
	// registry gave one to check it against.
	ArchiveSHA256 string `json:"archiveSha256,omitempty"`
	// CommandSHA256 is the command's sha256 when it was installed; Verify compares it on
	// every start.
	CommandSHA256 string    `json:"commandSha256"`
	InstalledAt   time.Time `json:"installedAt"`
	Dir           string    `json:"-"` // the install folder (set when read)
}

// Command is the absolute path of the command to start.
func (in Install) Command() string { return filepath.Join(in.Dir, filepath.FromSlash(in.Cmd)) }

// state is <root>/<id>/state.json: the versions installed and which is current. At most two
// are kept: the current one and the one before it, for Rollback.
type state struct {
	Current  string             `json:"current"`
	Previous string             `json:"previous,omitempty"`
	Installs map[string]Install `json:"installs"`
}

func (i *Installer) agentDir(id string) string { return filepath.Join(i.Root, id) }

// ErrNoInstallFolder: an install, rollback or uninstall by an Installer whose Root is not an
// absolute folder (agentdesk found no data folder: see DefaultDir's error). Refused rather than
// resolved against the working folder, where the window or a command happens to run.
var ErrNoInstallFolder = errors.New("agentdesk has no data folder to install agents into")

// checkRoot refuses a Root that is not an absolute folder (ErrNoInstallFolder).
func (i *Installer) checkRoot() error {
	if !filepath.IsAbs(i.Root) {
		return ErrNoInstallFolder
	}
	return nil
}

func (i *Installer) load(id string) (state, error) {
	st := state{Installs: map[string]Install{}}
	if err := i.checkRoot(); err != nil {
		return st, err
	}
	raw, err := os.ReadFile(filepath.Join(i.agentDir(id), "state.json"))
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return st, err
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		return state{Installs: map[string]Install{}}, fmt.Errorf("the install record of %s is damaged (%v): uninstall it and install it again", id, err)
	}
	if st.Installs == nil {
		st.Installs = map[string]Install{}
	}
	for v, in := range st.Installs {
		in.Dir = filepath.Join(i.agentDir(id), v)
		st.Installs[v] = in
	}
	return st, nil
}

func (i *Installer) save(id string, st state) error {
	raw, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(i.agentDir(id), "state.json"), append(raw, '\n'), 0o600)
}

func randomSuffix() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
