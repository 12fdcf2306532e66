package main

import "sync/atomic"

// Quitting with turns running asks once. The window's close (and runtime.Quit) passes through
// beforeClose, which refuses it while a live session is starting or running a turn, and asks
// the page instead (quitRequestEvent, listing those sessions). The page answers with
// Desktop.ConfirmQuit (stop them and quit) or Desktop.CancelQuit. A second close while the page
// is asking quits regardless: a page that cannot answer never keeps the window open.

// quitRequestEvent is the event beforeClose sends the page: a QuitRequest.
const quitRequestEvent = "app:quit-request"

// QuitRequest lists the live sessions a quit would cut short.
type QuitRequest struct {
	Sessions []LiveSession `json:"sessions"`
}

// quitGuard is what beforeClose and the Desktop verbs share.
type quitGuard struct {
	confirmed atomic.Bool // the user confirmed (or nothing needs asking): close at once
	asking    atomic.Bool // the page has been asked and not answered
}

// askBeforeQuit reports whether a close must wait for the user, and asks the page if so.
func (a *App) askBeforeQuit() bool {
	if a.quit.confirmed.Load() || a.hub == nil {
		return false
	}
	busy := a.hub.Busy()
	if len(busy) == 0 {
		return false
	}
	if a.quit.asking.Swap(true) {
		return false // closed again while asked: quit regardless
	}
	a.emit(a.ctx, quitRequestEvent, QuitRequest{Sessions: liveSessions(busy)})
	return true
}

// ConfirmQuit quits agentdesk after the user confirmed it: every agent is stopped with the stop
// ladder on the way out (shutdown). It returns at once.
func (d *Desktop) ConfirmQuit() {
	d.quitNow()
}

// CancelQuit records that the user chose not to quit: the next close asks again.
func (d *Desktop) CancelQuit() {
	d.quit.asking.Store(false)
}

// quitNow quits without asking (a confirmed quit, the self-test's end).
func (d *Desktop) quitNow() {
	d.core.quit.confirmed.Store(true)
	if d.quitApp != nil {
		d.quitApp(d.ctx)
	}
}
