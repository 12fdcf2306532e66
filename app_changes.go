package main

import (
	"context"
	"errors"
	"fmt"

	"agentdesk/backend/changes"
	"agentdesk/backend/hub"
	"agentdesk/backend/store"
)

// SessionChanges lists what every turn of session sessionID (saved or live) changed on disk,
// with the reverts made since (the Changes view). It reads the history and the ledger: no
// agent is asked.
func (h *History) SessionChanges(sessionID string) (changes.SessionView, error) {
	ctx, cancel := context.WithTimeout(h.ctx, closeTimeout)
	defer cancel()
	if h.store == nil {
		return changes.SessionView{}, h.dbErr
	}
	v, err := h.hub.SessionChanges(ctx, sessionID)
	return v, changesErr(err)
}

// ChangeDiff returns one file of turn turn of session sessionID: its text before and after
// the turn and the hunks between them (binary files and files over the ledger's cap have no
// text; the result says which).
func (h *History) ChangeDiff(sessionID string, turn int, root, path string) (changes.FileDiff, error) {
	ctx, cancel := context.WithTimeout(h.ctx, closeTimeout)
	defer cancel()
	if h.store == nil {
		return changes.FileDiff{}, h.dbErr
	}
	d, err := h.hub.ChangeDiff(ctx, sessionID, turn, root, path)
	return d, changesErr(err)
}

// PreviewRevert says what Revert would do with req, conflicts included; it changes nothing.
func (h *History) PreviewRevert(req changes.RevertRequest) (changes.Plan, error) {
	return h.revert(req, false)
}

// Revert carries out req: it writes nothing when any file conflicts (the plan comes back with
// the conflicts, Done false), else restores the files and records the revert (Done, RevertID),
// which UndoRevert undoes. Refused while a turn of the session runs.
func (h *History) Revert(req changes.RevertRequest) (changes.Plan, error) {
	return h.revert(req, true)
}

// UndoRevert puts back what revert revertID of session sessionID replaced, with the same
// conflict check as Revert; the undo is itself recorded.
func (h *History) UndoRevert(sessionID, revertID string) (changes.Plan, error) {
	ctx, cancel := context.WithTimeout(h.ctx, revertTimeout)
	defer cancel()
	if h.store == nil {
		return changes.Plan{}, h.dbErr
	}
	p, err := h.hub.UndoRevert(ctx, sessionID, revertID)
	return p, changesErr(err)
}

// FileSessions lists the turns of every saved session that changed the file path beneath
// folder root, newest first ("which sessions touched this file").
func (h *History) FileSessions(root, path string) ([]changes.FileTouch, error) {
	ctx, cancel := context.WithTimeout(h.ctx, closeTimeout)
	defer cancel()
	if h.store == nil {
		return nil, h.dbErr
	}
	t, err := h.hub.FileSessions(ctx, root, path)
	if t == nil {
		t = []changes.FileTouch{}
	}
	return t, changesErr(err)
}

// revertTimeout bounds a revert: it snapshots the session's folders twice and writes files.
const revertTimeout = 2 * closeTimeout

func (h *History) revert(req changes.RevertRequest, apply bool) (changes.Plan, error) {
	ctx, cancel := context.WithTimeout(h.ctx, revertTimeout)
	defer cancel()
	if h.store == nil {
		return changes.Plan{}, h.dbErr
	}
	p, err := h.hub.Revert(ctx, req, apply)
	return p, changesErr(err)
}

// changesErr words the ledger's errors for the window.
func changesErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, store.ErrNotFound):
		return errors.New("this session or turn is not in the history (it may have been deleted)")
	case errors.Is(err, hub.ErrTurnRunning):
		return errors.New("a turn of this session is running: stop it or wait for it to end, then revert")
	case errors.Is(err, changes.ErrNoSnapshot):
		return fmt.Errorf("agentdesk has no record of this turn's files: %w", err)
	}
	return forWindow(err)
}
