package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/changes"
	"agentdesk/backend/store"
)

// ErrTurnRunning: a revert was asked of a session whose turn is running.
var ErrTurnRunning = errors.New("a turn of the session is running")

// ErrNoLedger: there is no change ledger (no history, or its folder could not be made).
var ErrNoLedger = errors.New("the change ledger is unavailable")

// turnTrees are one turn's snapshots.
type turnTrees struct {
	start, end map[string]changes.Hash
	endAt      time.Time
}

// ledgerOf reads what the history holds of session id's changes: its turns, their snapshots
// and its reverts.
func (h *Hub) ledgerOf(ctx context.Context, id string) (*changes.Ledger, []store.Turn, map[int]*turnTrees, []store.LedgerRevert, error) {
	l := h.changeLedger()
	if l == nil || h.store == nil {
		return nil, nil, nil, nil, ErrNoLedger
	}
	h.flush(ctx)
	_, turns, err := h.store.SessionTurns(ctx, id)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	snaps, err := h.store.LedgerSnapshots(ctx, id)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	byTurn := map[int]*turnTrees{}
	for _, s := range snaps {
		t := byTurn[s.Turn]
		if t == nil {
			t = &turnTrees{}
			byTurn[s.Turn] = t
		}
		if s.Phase == store.PhaseStart {
			t.start = treeHashes(s.Trees)
		} else {
			t.end, t.endAt = treeHashes(s.Trees), s.At
		}
	}
	reverts, err := h.store.LedgerReverts(ctx, id)
	return l, turns, byTurn, reverts, err
}

// flush lets queued history writes land before a read (a turn's snapshots are queued).
func (h *Hub) flush(ctx context.Context) {
	if h.store != nil {
		if err := h.store.Writer().Flush(ctx); err != nil {
			h.logf("change ledger: the history did not catch up: %v", err)
		}
	}
}

// running says whether a turn of session id is running now.
func (h *Hub) running(id string) bool {
	s, err := h.Session(id)
	if err != nil {
		return false
	}
	st := s.State()
	return st == acp.StateRunning || st == acp.StateCancelling
}

// SessionChanges lists what every turn of session id changed on disk, with its reverts. A turn
// whose end was never recorded (agentdesk stopped mid-turn) is recorded now, once no turn of
// the session runs.
func (h *Hub) SessionChanges(ctx context.Context, id string) (changes.SessionView, error) {
	l, turns, trees, reverts, err := h.ledgerOf(ctx, id)
	if err != nil {
		return changes.SessionView{}, fmt.Errorf("changes of session %s: %w", id, err)
	}
	v := changes.SessionView{SessionID: id, Running: h.running(id), Turns: []changes.TurnView{}}
	for _, t := range turns {
		tv := changes.TurnView{Turn: t.Turn, Prompt: t.Prompt, StartedAt: t.StartedAt.UnixMilli(), StopReason: t.StopReason, Reverts: []changes.RevertView{}}
		tt := trees[t.Turn]
		switch {
		case tt == nil || tt.start == nil:
			tv.Changes.Error = "agentdesk has no record of this turn's files"
		case tt.end == nil && (v.Running || t.EndedAt.IsZero() && h.live(id)):
			tv.Changes.Error = "the turn has not ended"
		case tt.end == nil:
			tt.end = h.recover(ctx, l, id, t.Turn, tt.start)
			if tt.end == nil {
				tv.Changes.Error = "the turn's end was not recorded"
				break
			}
			tv.Changes = *turnChanges(l, rootsOf(tt.start), tt.start, tt.end)
		default:
			tv.Changes = *turnChanges(l, rootsOf(tt.start), tt.start, tt.end)
		}
		if tv.Changes.Files == nil {
			tv.Changes.Files = []schema.ChangedFile{}
		}
		for _, r := range reverts {
			if r.Turn == t.Turn {
				tv.Reverts = append(tv.Reverts, revertView(r))
			}
		}
		v.Turns = append(v.Turns, tv)
	}
	return v, nil
}

// live says whether session id is open in the hub.
func (h *Hub) live(id string) bool {
	_, err := h.Session(id)
	return err == nil
}

// recover records the end of a turn that never ended (agentdesk stopped mid-turn): the folders
// as they are now, with a note; nil when they cannot be read.
func (h *Hub) recover(ctx context.Context, l *changes.Ledger, id string, turn int, start map[string]changes.Hash) map[string]changes.Hash {
	trees, notes, err := snapshotRoots(ctx, l, rootsOf(start))
	if err != nil {
		h.logf("session %s: record the end of turn %d: %v", id, turn, err)
		return nil
	}
	notes = append(notes, "this turn's end was recorded when the session was next opened (agentdesk had stopped during it)")
	h.store.Writer().SaveSnapshot(store.LedgerSnapshot{SessionID: id, Turn: turn, Phase: store.PhaseEnd, Trees: treeStrings(trees), Notes: notes})
	h.store.Writer().SaveTurnFiles(id, turn, ledgerFiles(turnChanges(l, rootsOf(start), start, trees).Files), time.Time{})
	return trees
}

func rootsOf(m map[string]changes.Hash) []string {
	out := make([]string, 0, len(m))
	for r := range m {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}

func revertView(r store.LedgerRevert) changes.RevertView {
	v := changes.RevertView{ID: r.ID, At: r.At.UnixMilli(), Undone: r.Undone, Files: []string{}}
	json.Unmarshal(r.Request, &v.Request)
	for _, f := range r.Files {
		v.Files = append(v.Files, f.Path)
	}
	return v
}

// ChangeDiff returns one file of turn turn of session id with its hunks.
func (h *Hub) ChangeDiff(ctx context.Context, id string, turn int, root, path string) (changes.FileDiff, error) {
	l, tt, err := h.turnSnapshots(ctx, id, turn)
	if err != nil {
		return changes.FileDiff{}, err
	}
	f, ok := findFile(l, tt, root, path)
	if !ok {
		return changes.FileDiff{}, fmt.Errorf("file %s of turn %d: %w", path, turn, store.ErrNotFound)
	}
	d, err := l.FileDiff(f, tt.start[root], tt.end[root])
	if err != nil {
		return changes.FileDiff{}, fmt.Errorf("file %s of turn %d: %w", path, turn, err)
	}
	return d, nil
}

// turnSnapshots returns turn turn's start and end snapshots (ErrNoSnapshot without both).
func (h *Hub) turnSnapshots(ctx context.Context, id string, turn int) (*changes.Ledger, *turnTrees, error) {
	l, _, trees, _, err := h.ledgerOf(ctx, id)
	if err != nil {
		return nil, nil, fmt.Errorf("changes of session %s: %w", id, err)
	}
	tt := trees[turn]
	if tt == nil || tt.start == nil || tt.end == nil {
		return nil, nil, fmt.Errorf("turn %d of session %s: %w", turn, id, changes.ErrNoSnapshot)
	}
	return l, tt, nil
}

// findFile finds root/path among the turn's changes.
func findFile(l *changes.Ledger, tt *turnTrees, root, path string) (schema.ChangedFile, bool) {
	fs, err := l.Changes(root, tt.start[root], tt.end[root])
	if err != nil {
		return schema.ChangedFile{}, false
	}
	i := slices.IndexFunc(fs, func(f schema.ChangedFile) bool { return f.Path == path })
	if i < 0 {
		return schema.ChangedFile{}, false
	}
	return fs[i], true
}

// FileSessions lists the turns that changed root/path, newest first.
func (h *Hub) FileSessions(ctx context.Context, root, path string) ([]changes.FileTouch, error) {
	if h.store == nil {
		return nil, ErrNoLedger
	}
	h.flush(ctx)
	ts, err := h.store.FileTouches(ctx, root, path, 200)
	if err != nil {
		return nil, err
	}
	out := make([]changes.FileTouch, 0, len(ts))
	for _, t := range ts {
		out = append(out, changes.FileTouch{SessionID: t.SessionID, Title: t.Title, AgentName: t.AgentName, Turn: t.Turn, Change: t.Change, At: t.At.UnixMilli()})
	}
	return out, nil
}
