package changes

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// Default caps (Options).
const (
	DefaultMaxFile   = 16 << 20  // a file larger is listed, not kept
	DefaultMaxStored = 512 << 20 // one snapshot stores at most this much new content
	DefaultMaxFiles  = 200_000   // a folder with more files is not recorded (ErrTooManyFiles)
)

// Options configure a Ledger; zero values take the defaults.
type Options struct {
	MaxFile   int64
	MaxStored int64
	MaxFiles  int
	// Global are ignore patterns for every folder (the person's core.excludesFile):
	// GlobalIgnores() in the app; nil in tests.
	Global []gitignore.Pattern
	// Now is the clock (racy-file rule, snapshot times); default time.Now.
	Now func() time.Time
	// Own are files and folders of agentdesk's own (the history file and its companions): a
	// snapshot of a folder that holds them never records them, nor reports them changed. The
	// ledger's own folder is always one of them.
	Own []string
}

// Steps of Ledger.hook.
const (
	hookListed = "listed"
	hookOpen   = "open"
)

// Ledger is the change ledger of one data directory: the content store and, per folder, the
// last snapshot (the next one's stat cache). Safe for concurrent use; snapshots of one folder
// are taken one at a time, of different folders in parallel. Several processes may share the
// directory (the app and the CLI): objects are written atomically and never changed.
type Ledger struct {
	dir  string
	objs *objects
	opt  Options

	mu    sync.Mutex
	roots map[string]chan struct{} // folder → the lock its snapshots take (held: full)
	trees treeCache

	// hook, when set (tests), runs on the walk at step (hookListed: a folder was listed, before
	// its entries are read; hookOpen: a file is about to be opened) of rel ("." for the folder).
	hook func(step, rel string)
}

// Open returns the ledger kept in dir (created if need be, mode 0700).
func Open(dir string, opt Options) (*Ledger, error) {
	if err := os.MkdirAll(filepath.Join(dir, "objects"), 0o700); err != nil {
		return nil, fmt.Errorf("open change ledger: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "roots"), 0o700); err != nil {
		return nil, fmt.Errorf("open change ledger: %w", err)
	}
	if opt.MaxFile <= 0 {
		opt.MaxFile = DefaultMaxFile
	}
	if opt.MaxStored <= 0 {
		opt.MaxStored = DefaultMaxStored
	}
	if opt.MaxFiles <= 0 {
		opt.MaxFiles = DefaultMaxFiles
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	return &Ledger{dir: dir, objs: &objects{dir: filepath.Join(dir, "objects")}, opt: opt,
		roots: map[string]chan struct{}{}, trees: treeCache{m: map[Hash][]entry{}}}, nil
}

// Dir is where the ledger keeps its files.
func (l *Ledger) Dir() string { return l.dir }

// lockRoot takes folder root's snapshot lock, waiting for it no longer than ctx lets it (a
// snapshot left behind in a stuck system call holds it); the caller calls unlock.
func (l *Ledger) lockRoot(ctx context.Context, root string) (unlock func(), err error) {
	l.mu.Lock()
	m := l.roots[root]
	if m == nil {
		m = make(chan struct{}, 1)
		l.roots[root] = m
	}
	l.mu.Unlock()
	select {
	case m <- struct{}{}:
		return func() { <-m }, nil
	case <-ctx.Done():
		return nil, ErrSnapshotBusy
	}
}

// lastFile is where folder root's last snapshot is noted.
func (l *Ledger) lastFile(root string) string {
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(l.dir, "roots", hex.EncodeToString(sum[:16]))
}

// last is folder root's last snapshot ("" when none); the caller holds its lock.
func (l *Ledger) last(root string) Hash {
	b, err := os.ReadFile(l.lastFile(root))
	if err != nil {
		return ""
	}
	h := Hash(strings.TrimSpace(string(b)))
	if !h.valid() || !l.objs.has(h) {
		return ""
	}
	return h
}

// setLast notes tree as folder root's last snapshot; the caller holds its lock. A failure
// only costs the next snapshot its cache.
func (l *Ledger) setLast(root string, tree Hash) {
	p := l.lastFile(root)
	tmp := p + ".tmp"
	if os.WriteFile(tmp, []byte(string(tree)+"\n"), 0o600) == nil {
		os.Rename(tmp, p)
	}
}

// tree reads tree h through the cache.
func (l *Ledger) tree(h Hash) ([]entry, error) {
	if es, ok := l.trees.get(h); ok {
		return es, nil
	}
	es, err := l.objs.readTree(h)
	if err == nil {
		l.trees.put(h, es)
	}
	return es, err
}

// treeCache keeps decoded directory records (they never change) up to a bound.
type treeCache struct {
	mu sync.Mutex
	m  map[Hash][]entry
	n  int
}

const treeCacheEntries = 200_000

func (c *treeCache) get(h Hash) ([]entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	es, ok := c.m[h]
	return es, ok
}

func (c *treeCache) put(h Hash, es []entry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n+len(es) > treeCacheEntries {
		c.m, c.n = map[Hash][]entry{}, 0
	}
	if _, ok := c.m[h]; !ok {
		c.m[h] = es
		c.n += len(es) + 1
	}
}
