package changes

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Hash names an object of the store: the hex SHA-256 of its bytes. "" is no object.
type Hash string

// objects is the content-addressed store beneath a directory: objects/ab/cdef… Writes are
// atomic (a temporary file renamed into place) and idempotent; an object is never changed
// once written, so readers need no lock.
type objects struct {
	dir string
}

func hashOf(b []byte) Hash {
	sum := sha256.Sum256(b)
	return Hash(hex.EncodeToString(sum[:]))
}

func (o *objects) path(h Hash) string {
	return filepath.Join(o.dir, string(h[:2]), string(h[2:]))
}

// valid says whether h can name an object (it comes from the store's rows, which an older or
// damaged file may hold): never a path of its own.
func (h Hash) valid() bool {
	if len(h) != 64 {
		return false
	}
	for _, c := range h {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// has says whether object h is stored.
func (o *objects) has(h Hash) bool {
	_, err := os.Stat(o.path(h))
	return err == nil
}

// put stores b under its hash, unless it is there already, and returns the hash and how many
// bytes were newly written.
func (o *objects) put(b []byte) (Hash, int64, error) {
	h := hashOf(b)
	if o.has(h) {
		return h, 0, nil
	}
	p := o.path(h)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return "", 0, fmt.Errorf("store object: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return "", 0, fmt.Errorf("store object: %w", err)
	}
	_, werr := f.Write(b)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return "", 0, fmt.Errorf("store object: %w", err)
	}
	if err := os.Rename(f.Name(), p); err != nil {
		os.Remove(f.Name())
		return "", 0, fmt.Errorf("store object: %w", err)
	}
	return h, int64(len(b)), nil
}

// get reads object h; ErrMissingObject (wrapped) when it is not stored.
func (o *objects) get(h Hash) ([]byte, error) {
	if !h.valid() {
		return nil, fmt.Errorf("read object %q: %w", h, ErrMissingObject)
	}
	b, err := os.ReadFile(o.path(h))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read object %s: %w", h[:12], ErrMissingObject)
	}
	if err != nil {
		return nil, fmt.Errorf("read object %s: %w", h[:12], err)
	}
	return b, nil
}

// hashReader hashes what r yields without keeping it (a file over the cap is still compared
// by content when it is small enough to read).
func hashReader(r io.Reader) (Hash, error) {
	d := sha256.New()
	if _, err := io.Copy(d, r); err != nil {
		return "", err
	}
	return Hash(hex.EncodeToString(d.Sum(nil))), nil
}
