package main

import (
	"context"
	"errors"
	"log"
	"time"
)

// historyError is the store's error handler: every failed write is logged, and the first of a
// spell of failures tells the user (see historyHealth).
func (a *App) historyError(err error) {
	log.Printf("agentdesk history: %v", err)
	a.health.report(err)
}

// HistoryStatus says whether the history is being saved right now (see HistoryStatus). The
// page asks once at load; later changes arrive as "history:status" events.
func (a *App) HistoryStatus() HistoryStatus {
	if a.store == nil {
		return HistoryStatus{Saving: false, Problem: a.HistoryNotice()}
	}
	return a.health.Status()
}

// RetryHistory tries to save now, the Retry button of the history problem: it writes what is
// pending and a copy of every live session. It blocks until that is written (at most 30 s)
// and fails, saying why, when the history still cannot be written.
func (a *App) RetryHistory() (HistoryStatus, error) {
	if a.store == nil {
		return a.HistoryStatus(), errors.New(a.HistoryNotice() + ": restart agentdesk once the cause is fixed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := a.health.Retry(ctx); err != nil {
		return a.health.Status(), errors.New(describeHistoryError(err))
	}
	return a.health.Status(), nil
}
