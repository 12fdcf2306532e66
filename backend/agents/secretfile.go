package agents

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"agentdesk/backend/atomicfile"
)

// FileSecrets keeps secrets in a JSON file of mode 0600 (in a 0700 folder), written atomically:
// the fallback when no OS keyring answers (see OpenSecrets). A file that cannot be read is
// copied aside (secrets.json.unreadable-TIME) before the next write replaces it.
type FileSecrets struct {
	Path string

	mu sync.Mutex
}

type secretFile struct {
	Secrets map[string]map[string]string `json:"secrets"` // agent id → name → value
}

func (f *FileSecrets) load() (secretFile, error) {
	var s secretFile
	raw, err := os.ReadFile(f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return secretFile{Secrets: map[string]map[string]string{}}, nil
	}
	if err == nil {
		err = json.Unmarshal(raw, &s)
	}
	if err != nil {
		return secretFile{Secrets: map[string]map[string]string{}}, fmt.Errorf("the secrets file %s cannot be read: %w", f.Path, err)
	}
	if s.Secrets == nil {
		s.Secrets = map[string]map[string]string{}
	}
	return s, nil
}

func (f *FileSecrets) save(s secretFile, loadErr error) error {
	if err := os.MkdirAll(filepath.Dir(f.Path), 0o700); err != nil {
		return err
	}
	if loadErr != nil {
		if old, err := os.ReadFile(f.Path); err == nil {
			aside := f.Path + ".unreadable-" + time.Now().Format("20060102-150405")
			if err := os.WriteFile(aside, old, 0o600); err != nil {
				return fmt.Errorf("keep a copy of the unreadable %s: %w", f.Path, err)
			}
		}
	}
	raw, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(f.Path, append(raw, '\n'), 0o600)
}

// Get returns the stored value, or an error wrapping ErrNoSecret.
func (f *FileSecrets) Get(agentID, name string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s, err := f.load()
	if err != nil {
		return "", secretErr("read", agentID, name, err)
	}
	v, ok := s.Secrets[agentID][name]
	if !ok {
		return "", secretErr("read", agentID, name, ErrNoSecret)
	}
	return v, nil
}

// Set stores value, replacing the file atomically.
func (f *FileSecrets) Set(agentID, name, value string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	s, loadErr := f.load()
	if s.Secrets[agentID] == nil {
		s.Secrets[agentID] = map[string]string{}
	}
	s.Secrets[agentID][name] = value
	if err := f.save(s, loadErr); err != nil {
		return secretErr("store", agentID, name, err)
	}
	return nil
}

// Delete removes the value; a missing one is not an error.
func (f *FileSecrets) Delete(agentID, name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	s, loadErr := f.load()
	if _, ok := s.Secrets[agentID][name]; !ok && loadErr == nil {
		return nil
	}
	delete(s.Secrets[agentID], name)
	if len(s.Secrets[agentID]) == 0 {
		delete(s.Secrets, agentID)
	}
	if err := f.save(s, loadErr); err != nil {
		return secretErr("delete", agentID, name, err)
	}
	return nil
}

// Where is the file's path.
func (f *FileSecrets) Where() string { return f.Path + " (readable only by you)" }
