package hub

import (
	"context"
	"encoding/json"
	"fmt"

	"agentdesk/backend/acp/schema"
	"agentdesk/backend/changes"
	"agentdesk/backend/store"
	"github.com/google/uuid"
)

// Revert plans req and, when apply is set and nothing conflicts, carries it out and records it.
// It compares the folders as they are now (a fresh snapshot) with what the revert expects:
// a file changed since (by the person, another session or a later turn the scope leaves alone)
// is a conflict, and a plan with any conflict writes nothing. ErrTurnRunning while a turn of
// the session runs; changes.ErrNoSnapshot for a turn the ledger did not record.
func (h *Hub) Revert(ctx context.Context, req changes.RevertRequest, apply bool) (changes.Plan, error) {
	unlock, err := h.reverting.lock(ctx, sessionKey(req.SessionID))
	if err != nil {
		return changes.Plan{}, fmt.Errorf("revert: %w", err)
	}
	defer unlock()
	if h.running(req.SessionID) {
		return changes.Plan{}, ErrTurnRunning
	}
	l, turns, trees, reverts, err := h.ledgerOf(ctx, req.SessionID)
	if err != nil {
		return changes.Plan{}, fmt.Errorf("revert: %w", err)
	}
	if turnOpen(turns) {
		return changes.Plan{}, ErrTurnRunning
	}
	targets, roots, err := revertTargets(l, req, trees, reverts)
	if err != nil {
		return changes.Plan{}, fmt.Errorf("revert: %w", err)
	}
	return h.carryOut(ctx, l, req, targets, roots, apply, "")
}

// UndoRevert undoes revert revertID of session id: the files it wrote get back what they held
// just before it, with the same conflict check.
func (h *Hub) UndoRevert(ctx context.Context, id, revertID string) (changes.Plan, error) {
	unlock, err := h.reverting.lock(ctx, sessionKey(id))
	if err != nil {
		return changes.Plan{}, fmt.Errorf("undo revert: %w", err)
	}
	defer unlock()
	if h.running(id) {
		return changes.Plan{}, ErrTurnRunning
	}
	l, turns, _, reverts, err := h.ledgerOf(ctx, id)
	if err != nil {
		return changes.Plan{}, fmt.Errorf("undo revert: %w", err)
	}
	if turnOpen(turns) {
		return changes.Plan{}, ErrTurnRunning
	}
	var r *store.LedgerRevert
	for i := range reverts {
		if reverts[i].ID == revertID {
			r = &reverts[i]
		}
	}
	if r == nil {
		return changes.Plan{}, fmt.Errorf("undo revert %s: %w", revertID, store.ErrNotFound)
	}
	if r.Undone {
		return changes.Plan{}, fmt.Errorf("undo revert %s: it was undone already", revertID)
	}
	req := changes.RevertRequest{SessionID: id, Turn: r.Turn, Scope: changes.ScopeUndo, Revert: revertID}
	var targets []changes.Target
	for _, f := range r.Files {
		targets = append(targets, changes.Target{Root: f.Root, Path: f.Path, From: changes.Hash(r.Before[f.Root]), Expect: changes.Hash(r.After[f.Root])})
	}
	return h.carryOut(ctx, l, req, targets, rootsOf(treeHashes(r.Before)), true, revertID)
}

// carryOut takes the folders' revert locks (the caller holds the session's), plans targets
// against the disk as it is now and, when apply is set and nothing conflicts, snapshots the
// folders, writes the files, snapshots again and records the revert.
func (h *Hub) carryOut(ctx context.Context, l *changes.Ledger, req changes.RevertRequest, targets []changes.Target,
	roots []string, apply bool, undoOf string) (changes.Plan, error) {
	unlock, err := h.reverting.lock(ctx, roots...)
	if err != nil {
		return changes.Plan{}, fmt.Errorf("revert: %w", err)
	}
	defer unlock()
	files, err := l.Plan(targets)
	if err != nil {
		return changes.Plan{}, fmt.Errorf("revert: %w", err)
	}
	plan := changes.Plan{Request: req, Files: files}
	for _, f := range files {
		if f.Conflict != "" {
			plan.Conflicts++
		}
	}
	if !apply || plan.Conflicts > 0 {
		return plan, nil
	}
	now, _, err := snapshotRoots(ctx, l, roots) // what the revert replaces: its undo's target
	if err != nil {
		return plan, fmt.Errorf("revert: %w", err)
	}
	done, err := l.Apply(targets)
	after, _, serr := snapshotRoots(ctx, l, roots)
	if err == nil && serr != nil {
		err = serr
	}
	if len(done) > 0 && after != nil {
		h.recordRevert(ctx, req, now, after, targets, done, undoOf, &plan)
	}
	if err != nil {
		return plan, fmt.Errorf("revert: %d of %d files reverted, then: %w", len(done), len(targets), err)
	}
	return plan, nil
}

// recordRevert saves a carried-out revert and marks the plan done.
func (h *Hub) recordRevert(ctx context.Context, req changes.RevertRequest, before, after map[string]changes.Hash,
	targets []changes.Target, done []string, undoOf string, plan *changes.Plan) {
	wrote := map[string]bool{}
	for _, p := range done {
		wrote[p] = true
	}
	var files []store.LedgerFile
	for _, t := range targets {
		if wrote[t.Path] {
			files = append(files, store.LedgerFile{Root: t.Root, Path: t.Path, Change: schema.ChangeModified})
		}
	}
	reqJSON, _ := json.Marshal(req)
	id := uuid.NewString()
	h.store.Writer().SaveRevert(store.LedgerRevert{ID: id, SessionID: req.SessionID, Turn: req.Turn, Request: reqJSON,
		Before: treeStrings(before), After: treeStrings(after), Files: files, UndoOf: undoOf})
	if err := h.store.Writer().Flush(ctx); err != nil {
		h.logf("session %s: the revert was carried out but not yet saved: %v", req.SessionID, err)
	}
	plan.Done, plan.RevertID = true, id
}

// revertTargets turns a request into the files to put back and the folders to snapshot.
func revertTargets(l *changes.Ledger, req changes.RevertRequest, trees map[int]*turnTrees, reverts []store.LedgerRevert) ([]changes.Target, []string, error) {
	tt := trees[req.Turn]
	if tt == nil || tt.start == nil || tt.end == nil {
		return nil, nil, fmt.Errorf("turn %d: %w", req.Turn, changes.ErrNoSnapshot)
	}
	roots := rootsOf(tt.start)
	from, expect := tt.start, tt.end
	if req.Scope == changes.ScopeSince {
		expect = latest(trees, reverts)
	}
	var targets []changes.Target
	for _, root := range roots {
		if (req.Scope == changes.ScopeFile || req.Scope == changes.ScopeHunk) && root != req.Root {
			continue
		}
		fs, err := l.Changes(root, from[root], expect[root])
		if err != nil {
			return nil, nil, err
		}
		for _, f := range fs {
			if (req.Scope == changes.ScopeFile || req.Scope == changes.ScopeHunk) && f.Path != req.Path {
				continue
			}
			t := changes.Target{Root: root, Path: f.Path, From: from[root], Expect: expect[root]}
			if req.Scope == changes.ScopeHunk {
				content, err := l.HunkReverted(f, from[root], expect[root], req.Hunk)
				if err != nil {
					return nil, nil, err
				}
				t.Content = &content
			}
			targets = append(targets, t)
			if f.From != "" && req.Scope != changes.ScopeHunk { // a rename: the old name comes back too
				targets = append(targets, changes.Target{Root: root, Path: f.From, From: from[root], Expect: expect[root]})
			}
		}
	}
	switch req.Scope {
	case changes.ScopeTurn, changes.ScopeSince:
	case changes.ScopeFile, changes.ScopeHunk:
		if len(targets) == 0 {
			return nil, nil, fmt.Errorf("%s is not among turn %d's changes: %w", req.Path, req.Turn, store.ErrNotFound)
		}
	default:
		return nil, nil, fmt.Errorf("unknown revert scope %q", req.Scope)
	}
	return targets, roots, nil
}

// latest is the newest known state of the folders: the end of the last recorded turn, or the
// state after the last revert if that came later.
func latest(trees map[int]*turnTrees, reverts []store.LedgerRevert) map[string]changes.Hash {
	last := 0
	for n, t := range trees {
		if t.end != nil && n > last {
			last = n
		}
	}
	out := trees[last].end
	if n := len(reverts); n > 0 && !reverts[n-1].At.Before(trees[last].endAt) {
		out = treeHashes(reverts[n-1].After)
	}
	return out
}

// turnOpen says whether the history shows the session's last turn still running (in this
// process or another: the window while the command line reverts).
func turnOpen(turns []store.Turn) bool {
	return len(turns) > 0 && turns[len(turns)-1].EndedAt.IsZero()
}
