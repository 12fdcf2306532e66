package hub

import (
	"context"
	"fmt"

	"agentdesk/backend/acp"
	"agentdesk/backend/store"
)

// The ends of a session's journal a diagnosis keeps, and how many of its errors: the handshake
// (initialize, session/new or load and their answers) and what came last, bounded whatever the
// session's length.
const (
	DiagnosisHead   = 8
	DiagnosisTail   = 200
	DiagnosisErrors = 20
)

// Diagnosis is what a diagnostic bundle tells of one session (export.DiagnosticArchive writes
// it, masked): its row and turns, the ends of its protocol journal, its errors and its agent's
// stderr, and the history file's health. Nothing in it is masked yet.
type Diagnosis struct {
	Version string // agentdesk's
	Session store.Session
	Turns   []store.Turn
	Live    bool // the session runs in this process
	// Stderr is the live agent's stderr tail, else the one the last error kept.
	Stderr  string
	Errors  []acp.Entry     // the transcript's error entries, the last DiagnosisErrors
	Journal []store.Message // the first DiagnosisHead and last DiagnosisTail messages
	Health  store.Health
	// HealthErr is why the history's health could not be read ("" when it was).
	HealthErr string
}

// Diagnose gathers session id's Diagnosis from the history (after what is queued is written)
// and, while it is live, from the running session. It fails with ErrNotSaved without a history
// and with store.ErrNotFound (wrapped) for a session the history does not hold.
func (h *Hub) Diagnose(ctx context.Context, id string) (Diagnosis, error) {
	if h.store == nil {
		return Diagnosis{}, ErrNotSaved
	}
	h.flush(ctx)
	sess, turns, entries, err := h.store.Session(ctx, id)
	if err != nil {
		return Diagnosis{}, fmt.Errorf("diagnose session %s: %w", id, err)
	}
	journal, err := h.store.JournalEnds(ctx, id, DiagnosisHead, DiagnosisTail)
	if err != nil {
		return Diagnosis{}, fmt.Errorf("diagnose session %s: %w", id, err)
	}
	d := Diagnosis{Version: version, Session: sess, Turns: turns, Journal: journal}
	for _, e := range SnapshotFromStore(sess, nil, entries).Entries {
		if e.Kind == acp.KindError {
			d.Errors = append(d.Errors, e)
		}
	}
	if n := len(d.Errors); n > DiagnosisErrors {
		d.Errors = d.Errors[n-DiagnosisErrors:]
	}
	if n := len(d.Errors); n > 0 {
		d.Stderr = d.Errors[n-1].Stderr
	}
	if s, err := h.Session(id); err == nil {
		d.Live, d.Stderr = true, s.Stderr()
	}
	if d.Health, err = h.store.Health(ctx); err != nil {
		d.HealthErr = err.Error()
	}
	return d, nil
}
