package agents

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/zalando/go-keyring"
)

// keyringService is the service name of agentdesk's items in the OS keyring; each item's user
// is "AGENT_ID/VARIABLE".
const keyringService = "agentdesk"

// Keyring keeps secrets in the OS keyring through the Secret Service D-Bus API, with
// github.com/zalando/go-keyring: pure Go (over github.com/godbus/dbus, no libsecret and no cgo),
// small, maintained, and the same calls on macOS and Windows should agentdesk ever run there.
// Every call is bounded by KeyringTimeout.
type Keyring struct{}

// OpenKeyring returns the keyring when a session bus is known and its Secret Service answers,
// else an error saying why. It never starts a bus itself (go-keyring's D-Bus library would run
// dbus-launch and leave a daemon behind when no bus address is known).
func OpenKeyring() (*Keyring, error) {
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		rt := os.Getenv("XDG_RUNTIME_DIR")
		if rt == "" {
			return nil, errors.New("no session bus (DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are unset)")
		}
		if _, err := os.Stat(filepath.Join(rt, "bus")); err != nil {
			return nil, errors.New("no session bus")
		}
	}
	k := &Keyring{}
	_, err := k.Get("probe", "probe")
	if err != nil && !errors.Is(err, ErrNoSecret) {
		return nil, err
	}
	return k, nil
}

func keyringUser(agentID, name string) string { return agentID + "/" + name }

// bounded runs fn with KeyringTimeout: a hung bus call is abandoned (its goroutine ends when
// the bus answers or the connection drops) and reported.
func bounded[T any](fn func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := fn()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-time.After(KeyringTimeout):
		var zero T
		return zero, fmt.Errorf("the system keyring did not answer within %s", KeyringTimeout)
	}
}

// Get reads a value; a missing one is ErrNoSecret.
func (k *Keyring) Get(agentID, name string) (string, error) {
	v, err := bounded(func() (string, error) { return keyring.Get(keyringService, keyringUser(agentID, name)) })
	if errors.Is(err, keyring.ErrNotFound) {
		return "", secretErr("read", agentID, name, ErrNoSecret)
	}
	if err != nil {
		return "", secretErr("read", agentID, name, fmt.Errorf("system keyring: %w", err))
	}
	return v, nil
}

// Set stores a value, replacing any earlier one.
func (k *Keyring) Set(agentID, name, value string) error {
	_, err := bounded(func() (struct{}, error) {
		return struct{}{}, keyring.Set(keyringService, keyringUser(agentID, name), value)
	})
	if err != nil {
		return secretErr("store", agentID, name, fmt.Errorf("system keyring: %w", err))
	}
	return nil
}

// Delete removes a value; a missing one is not an error.
func (k *Keyring) Delete(agentID, name string) error {
	_, err := bounded(func() (struct{}, error) {
		return struct{}{}, keyring.Delete(keyringService, keyringUser(agentID, name))
	})
	if err != nil && !errors.Is(err, keyring.ErrNotFound) {
		return secretErr("delete", agentID, name, fmt.Errorf("system keyring: %w", err))
	}
	return nil
}

// Where names the keyring for the user.
func (k *Keyring) Where() string { return "the system keyring (Secret Service)" }
