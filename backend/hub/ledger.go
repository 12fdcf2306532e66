package hub

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/changes"
	"agentdesk/backend/store"
)

// snapshotTimeout bounds one snapshot of a session's folders: a turn waits for it, so a folder
// too large to walk in time is not recorded (the receipt says so) rather than holding the turn.
const snapshotTimeout = 30 * time.Second

// receiptFiles is how many changed files a receipt lists (the Changes view lists them all).
const receiptFiles = 300

// SetLedger sets the change ledger the sessions started from now on record their turns in
// (nil: none). The window and the command line open it beside the history.
func (h *Hub) SetLedger(l *changes.Ledger) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ledger = l
}

func (h *Hub) changeLedger() *changes.Ledger {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.ledger
}

// turnLedger is a saved session's acp.TurnObserver: it snapshots the session's folders at each
// turn's start and end, saves the snapshots and the changed files with the history, and hands
// the engine the turn's changes for its receipt.
type turnLedger struct {
	ledger    *changes.Ledger
	w         *store.Writer
	sessionID string
	roots     []string
	logf      func(string, ...any)

	// skip, when set, is why the session's turns are not recorded (a broad folder).
	skip string

	mu    sync.Mutex // the engine never calls for two turns at once; this guards the tests' reads
	start map[string]changes.Hash
	fail  string // why the start snapshot failed
}

var _ acp.TurnObserver = (*turnLedger)(nil)

// TurnStarted snapshots the folders before the prompt goes out. A snapshot cut short (its
// budget spent, or the turn stopped) is no record to judge the turn by: the turn's changes are
// then not recorded, and its receipt says why.
func (t *turnLedger) TurnStarted(ctx context.Context, turn int) {
	if t.skip != "" {
		return
	}
	trees, notes, err := t.snapshot(ctx)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.start, t.fail = trees, ""
	if err != nil {
		t.start, t.fail = nil, err.Error()
		t.logf("session %s: turn %d: %v", t.sessionID, turn, err)
		return
	}
	t.w.SaveSnapshot(store.LedgerSnapshot{SessionID: t.sessionID, Turn: turn, Phase: store.PhaseStart, Trees: treeStrings(trees), Notes: notes})
}

// TurnEnded snapshots the folders again and returns what changed between the two.
func (t *turnLedger) TurnEnded(ctx context.Context, turn int) *schema.TurnChanges {
	t.mu.Lock()
	start, fail := t.start, t.fail
	t.start = nil
	t.mu.Unlock()
	if t.skip != "" {
		return &schema.TurnChanges{Error: t.skip}
	}
	if start == nil {
		if fail == "" {
			fail = "the folders were not recorded when the turn started"
		}
		return &schema.TurnChanges{Error: fail}
	}
	trees, notes, err := t.snapshot(ctx)
	if err != nil {
		t.logf("session %s: turn %d: %v", t.sessionID, turn, err)
		return &schema.TurnChanges{Error: err.Error()}
	}
	t.w.SaveSnapshot(store.LedgerSnapshot{SessionID: t.sessionID, Turn: turn, Phase: store.PhaseEnd, Trees: treeStrings(trees), Notes: notes})
	tc := turnChanges(t.ledger, t.roots, start, trees)
	tc.Notes = append(tc.Notes, notes...)
	t.w.SaveTurnFiles(t.sessionID, turn, ledgerFiles(tc.Files), time.Time{})
	if len(tc.Files) > receiptFiles {
		tc.More, tc.Files = len(tc.Files)-receiptFiles, tc.Files[:receiptFiles]
	}
	return tc
}

// newTurnLedger is the observer of a saved session in folder dir with additional folders dirs.
// A broad folder (home, the file system's root) is never walked: it is more than a project, and
// a snapshot of it would hold up every turn.
func newTurnLedger(l *changes.Ledger, w *store.Writer, id, dir string, dirs []string, logf func(string, ...any)) *turnLedger {
	t := &turnLedger{ledger: l, w: w, sessionID: id, logf: logf}
	for _, r := range append([]string{dir}, dirs...) {
		if c, err := CheckFolder(r); err == nil && c.Broad != "" {
			t.skip = fmt.Sprintf("changes are not recorded in %s (more than a project folder): start the session in a project's folder to have them", r)
			return t
		}
		t.roots = append(t.roots, r)
	}
	return t
}

// snapshot records every folder of the session within snapshotTimeout, or less when ctx ends
// first (the turn was stopped).
func (t *turnLedger) snapshot(ctx context.Context) (map[string]changes.Hash, []string, error) {
	ctx, cancel := context.WithTimeout(ctx, snapshotTimeout)
	defer cancel()
	return snapshotRoots(ctx, t.ledger, t.roots)
}

// snapshotRoots snapshots each of roots; the notes of all, each error wrapped once. A snapshot
// cut short is an error that carries its notes: what it did not reach is unknown, and a turn
// judged by it could list, and revert, changes it did not make.
func snapshotRoots(ctx context.Context, l *changes.Ledger, roots []string) (map[string]changes.Hash, []string, error) {
	trees := make(map[string]changes.Hash, len(roots))
	var notes []string
	for _, r := range roots {
		s, err := l.Snapshot(ctx, r)
		if err != nil {
			return nil, nil, fmt.Errorf("the session's folders were not recorded: %w", err)
		}
		if s.Partial { // its last note says why
			return nil, nil, fmt.Errorf("the session's folders were not recorded: %s", s.Notes[len(s.Notes)-1])
		}
		notes = append(notes, s.Notes...)
		trees[r] = s.Tree
	}
	return trees, notes, nil
}

// turnChanges lists what changed in roots from trees a to trees b (a folder missing from either
// counts as empty there).
func turnChanges(l *changes.Ledger, roots []string, a, b map[string]changes.Hash) *schema.TurnChanges {
	tc := &schema.TurnChanges{}
	for _, r := range roots {
		fs, err := l.Changes(r, a[r], b[r])
		if err != nil {
			tc.Error = err.Error()
			continue
		}
		tc.Files = append(tc.Files, fs...)
	}
	return tc
}

func treeStrings(m map[string]changes.Hash) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = string(v)
	}
	return out
}

func treeHashes(m map[string]string) map[string]changes.Hash {
	out := make(map[string]changes.Hash, len(m))
	for k, v := range m {
		out[k] = changes.Hash(v)
	}
	return out
}

func ledgerFiles(fs []schema.ChangedFile) []store.LedgerFile {
	out := make([]store.LedgerFile, 0, len(fs)+1)
	for _, f := range fs {
		out = append(out, store.LedgerFile{Root: f.Root, Path: f.Path, Change: f.Change})
		if f.Change == schema.ChangeRenamed {
			out = append(out, store.LedgerFile{Root: f.Root, Path: f.From, Change: schema.ChangeDeleted})
		}
	}
	return out
}

// openLedger opens the change ledger of history st: the folder "ledger" beside its database,
// with the person's own ignore patterns (changes.GlobalIgnores). The window and the command
// line share it. The history file and its companions are never recorded as a turn's changes,
// even in a session folder that holds them (a session in the home folder, a --db inside the
// project).
func openLedger(st *store.Store) (*changes.Ledger, error) {
	db := st.Path()
	own := []string{db, db + "-wal", db + "-shm", db + "-journal", db + ".lock"}
	return changes.Open(filepath.Join(filepath.Dir(db), "ledger"), changes.Options{Global: changes.GlobalIgnores(), Own: own})
}

// CollectLedger deletes what the change ledger keeps for sessions no longer in the history
// (after a delete); content other sessions share stays. A failure is logged: it costs disk
// space, nothing else.
func (h *Hub) CollectLedger(ctx context.Context) {
	l := h.changeLedger()
	if l == nil || h.store == nil {
		return
	}
	h.flush(ctx) // a live session's snapshots still queued count too
	keep, err := h.store.LedgerTrees(ctx)
	if err != nil {
		h.logf("change ledger: %v", err)
		return
	}
	hashes := make([]changes.Hash, len(keep))
	for i, k := range keep {
		hashes[i] = changes.Hash(k)
	}
	if c, err := l.Collect(ctx, hashes, changes.CollectGrace); err != nil {
		h.logf("change ledger: %v", err)
	} else if c.Removed > 0 {
		h.logf("change ledger: removed %d files (%d bytes) no saved session needs", c.Removed, c.Freed)
	}
}
