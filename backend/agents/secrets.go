package agents

import (
	"errors"
	"fmt"
	"os"
	"time"
)

// ErrNoSecret is returned by SecretStore.Get when no value is stored.
var ErrNoSecret = errors.New("no such secret")

// SecretStore keeps secret values by agent id and variable name. Implementations are safe for
// concurrent use. Get returns ErrNoSecret (wrapped or not) for a missing value; Delete of a
// missing value is not an error.
type SecretStore interface {
	Get(agentID, name string) (string, error)
	Set(agentID, name, value string) error
	Delete(agentID, name string) error
	// Where says where values are kept, for the user ("the system keyring", a file's path).
	Where() string
}

// KeyringTimeout bounds one call to the OS keyring: a Secret Service that does not answer (a
// bus with no keyring daemon that activation leaves hanging) must not freeze the app.
const KeyringTimeout = 5 * time.Second

// OpenSecrets returns where the agents' secrets are kept: the OS keyring through the Secret
// Service (GNOME Keyring, KWallet, KeePassXC) when the session bus has one that answers,
// else the 0600 file secrets.json in dir. A machine without a keyring (CI, a bare Xvfb, a
// server used over ssh) still works: the fallback file is readable only by the user, like
// ~/.netrc or an SSH key — protected by file permissions, not encrypted. Values written to the
// file earlier stay readable after a keyring appears: reads try the keyring, then the file.
// AGENTDESK_NO_KEYRING=1 chooses the file (tests, and a keyring that keeps asking to unlock).
func OpenSecrets(dir string) SecretStore {
	file := &FileSecrets{Path: dir + string(os.PathSeparator) + "secrets.json"}
	if os.Getenv("AGENTDESK_NO_KEYRING") == "1" {
		return file
	}
	kr, err := OpenKeyring()
	if err != nil {
		return file
	}
	return &chain{primary: kr, fallback: file}
}

// chain reads from primary then fallback, writes to primary, and deletes from both.
type chain struct {
	primary  SecretStore
	fallback SecretStore
}

func (c *chain) Get(agentID, name string) (string, error) {
	v, err := c.primary.Get(agentID, name)
	if err == nil {
		return v, nil
	}
	if v, ferr := c.fallback.Get(agentID, name); ferr == nil {
		return v, nil
	}
	return "", err
}

func (c *chain) Set(agentID, name, value string) error {
	if err := c.primary.Set(agentID, name, value); err != nil {
		return err
	}
	_ = c.fallback.Delete(agentID, name) // one copy, in the keyring
	return nil
}

func (c *chain) Delete(agentID, name string) error {
	err := c.primary.Delete(agentID, name)
	if ferr := c.fallback.Delete(agentID, name); err == nil {
		err = ferr
	}
	return err
}

func (c *chain) Where() string { return c.primary.Where() }

// secretErr wraps a store failure with what was being done, never with the value.
func secretErr(op, agentID, name string, err error) error {
	if errors.Is(err, ErrNoSecret) {
		return fmt.Errorf("%s secret %s of agent %s: %w", op, name, agentID, ErrNoSecret)
	}
	return fmt.Errorf("%s secret %s of agent %s: %w", op, name, agentID, err)
}
