package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"agentdesk/backend/hub"
	"agentdesk/backend/store"
)

// HistoryStatus says whether the history is being saved (hub.HistoryStatus), bound as this
// package's own type so the page's generated models keep their names.
type HistoryStatus hub.HistoryStatus

// historyStatusEvent is the Wails event carrying a HistoryStatus, emitted when it changes.
const historyStatusEvent = "history:status"

// HistoryStatus says whether the history is being saved right now (see HistoryStatus). The
// page asks once at load; later changes arrive as "history:status" events.
func (h *History) HistoryStatus() HistoryStatus {
	if h.store == nil {
		return HistoryStatus{Saving: false, Problem: h.HistoryNotice()}
	}
	return HistoryStatus(h.health.Status())
}

// RetryHistory tries to save now, the Retry button of the history problem: it writes what is
// pending and a copy of every live session. It blocks until that is written (at most 30 s)
// and fails, saying why, when the history still cannot be written.
func (h *History) RetryHistory() (HistoryStatus, error) {
	if h.store == nil {
		return h.HistoryStatus(), errors.New(h.HistoryNotice() + ": restart agentdesk once the cause is fixed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := h.health.Retry(ctx); err != nil {
		return HistoryStatus(h.health.Status()), errors.New(describeHistoryError(err))
	}
	return HistoryStatus(h.health.Status()), nil
}

// describeHistoryError is the window's one message for a failed write.
func describeHistoryError(err error) string {
	what := "Saving the history failed"
	if store.Damaged(err) {
		what += ": the history file is damaged: quit agentdesk, which sets it aside when it starts again"
	} else if advice := store.Advice(err); advice != "" {
		what += ": " + advice
	} else {
		what += fmt.Sprintf(" (%v)", err)
	}
	return what + ". Your sessions keep running, and agentdesk saves them in full as soon as it can write again."
}
