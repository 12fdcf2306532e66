package registry

import (
	"os"
	"path/filepath"

	"agentdesk/backend/store"
)

// DefaultDir is the registry's folder in agentdesk's data folder (beside the history
// database: $XDG_DATA_HOME/agentdesk/registry): the cached index, and the installs in its
// agents/ folder.
func DefaultDir() (string, error) {
	db, err := store.DefaultPath()
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(db), "registry"), nil
}

// Open is the Source and the Installer of dir (DefaultDir), npm running on env. The index's
// address is DefaultURL unless AGENTDESK_REGISTRY_URL says otherwise (a mirror, or tests).
func Open(dir string, env []string) (*Source, *Installer) {
	src := &Source{URL: os.Getenv("AGENTDESK_REGISTRY_URL"), Dir: dir}
	in := &Installer{Env: env}
	if dir != "" { // no data folder: no Root, and every install refuses (ErrNoInstallFolder)
		in.Root = filepath.Join(dir, "agents")
	}
	return src, in
}
