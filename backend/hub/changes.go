package hub

import (
	"context"
	"errors"

	"agentdesk/backend/changes"
)

// ErrTurnRunning: a revert was asked of a session whose turn is running.
var ErrTurnRunning = errors.New("a turn of the session is running")

var errLedgerPending = errors.New("the change ledger is not wired yet")

// SessionChanges lists what every turn of session id changed on disk, with its reverts.
func (h *Hub) SessionChanges(ctx context.Context, id string) (changes.SessionView, error) {
	return changes.SessionView{}, errLedgerPending
}

// ChangeDiff returns one file of one turn of session id with its hunks.
func (h *Hub) ChangeDiff(ctx context.Context, id string, turn int, root, path string) (changes.FileDiff, error) {
	return changes.FileDiff{}, errLedgerPending
}

// Revert plans req and, when apply is set and nothing conflicts, carries it out.
func (h *Hub) Revert(ctx context.Context, req changes.RevertRequest, apply bool) (changes.Plan, error) {
	return changes.Plan{}, errLedgerPending
}

// UndoRevert undoes revert revertID of session id.
func (h *Hub) UndoRevert(ctx context.Context, id, revertID string) (changes.Plan, error) {
	return changes.Plan{}, errLedgerPending
}

// FileSessions lists the turns that changed root/path, newest first.
func (h *Hub) FileSessions(ctx context.Context, root, path string) ([]changes.FileTouch, error) {
	return nil, errLedgerPending
}
