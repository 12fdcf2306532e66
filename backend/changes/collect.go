package changes

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// CollectGrace is how old an object must be before Collect may delete it: a snapshot being
// taken (in this process or another) writes objects no saved row refers to yet.
const CollectGrace = time.Hour

// Collected is what Collect did.
type Collected struct {
	Kept, Removed int
	Freed         int64
}

// Collect deletes the objects the trees of keep (every tree the history still refers to) do
// not reach, once they are older than grace, and forgets a folder's last snapshot when keep does
// not hold it (its next snapshot reads every file again). The history calls it after deleting a
// session; content shared with other sessions stays.
func (l *Ledger) Collect(ctx context.Context, keep []Hash, grace time.Duration) (Collected, error) {
	marked := map[Hash]bool{}
	kept := map[Hash]bool{}
	for _, h := range keep {
		kept[h] = true
	}
	rootsDir := filepath.Join(l.dir, "roots")
	roots, _ := os.ReadDir(rootsDir)
	for _, r := range roots {
		p := filepath.Join(rootsDir, r.Name())
		if b, err := os.ReadFile(p); err == nil && !kept[Hash(strings.TrimSpace(string(b)))] {
			if info, err := r.Info(); err == nil && info.ModTime().Before(l.opt.Now().Add(-grace)) {
				os.Remove(p)
			}
		}
	}
	for _, h := range keep {
		if err := l.mark(ctx, h, marked); err != nil {
			return Collected{}, fmt.Errorf("clean up the change ledger: %w", err)
		}
	}
	var c Collected
	cutoff := l.opt.Now().Add(-grace)
	err := filepath.WalkDir(l.objs.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rel, _ := filepath.Rel(l.objs.dir, p)
		h := Hash(strings.ReplaceAll(rel, string(filepath.Separator), ""))
		if marked[h] {
			c.Kept++
			return nil
		}
		info, err := d.Info()
		if err != nil || info.ModTime().After(cutoff) {
			return nil
		}
		if os.Remove(p) == nil {
			c.Removed++
			c.Freed += info.Size()
		}
		return nil
	})
	if err != nil {
		return c, fmt.Errorf("clean up the change ledger: %w", err)
	}
	l.trees.mu.Lock()
	l.trees.m, l.trees.n = map[Hash][]entry{}, 0
	l.trees.mu.Unlock()
	return c, nil
}

// mark marks tree h and everything beneath it; a missing or damaged tree marks what it can.
func (l *Ledger) mark(ctx context.Context, h Hash, marked map[Hash]bool) error {
	if !h.valid() || marked[h] {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	marked[h] = true
	es, err := l.objs.readTree(h)
	if err != nil {
		return nil
	}
	for i := range es {
		e := &es[i]
		if e.isDir() {
			if err := l.mark(ctx, e.hash, marked); err != nil {
				return err
			}
		} else if e.hash != "" && !e.inline {
			marked[e.hash] = true
		}
	}
	return nil
}
