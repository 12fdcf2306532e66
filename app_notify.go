package main

import (
	"context"
	"fmt"
	"log"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"agentdesk/backend/notify"
)

// Getting the user's attention while the window is not focused (product.md: "a window that is
// not focused gets an OS notification"). The page decides when: only it knows whether it has
// the focus. It calls NotifyAttention for a permission request or a turn's end while unfocused,
// and AttentionSeen when it gets the focus back. Wails v2 has no notification API, so
// backend/notify speaks the freedesktop.org notification spec over D-Bus itself.

// attentionFocusEvent is emitted when the user clicks one of our notifications, after the
// window was raised: the page shows that session and focuses its open permission prompt.
const attentionFocusEvent = "attention:focus"

// AttentionFocus is the payload of the attention:focus event.
type AttentionFocus struct {
	SessionID string `json:"sessionId"`
}

// notices is what Desktop needs of a notify.Notifier; tests pass a recorder.
type notices interface {
	Post(notify.Message)
	Seen()
	Close()
}

// desktopAttention is how Desktop gets the user's attention: a notification per session and
// the window's urgency hint. A nil *desktopAttention does nothing (tests, the CLI).
type desktopAttention struct {
	notes  notices
	urgent func(on bool)             // sets or clears the window's urgency hint (urgency_*.go)
	raise  func(ctx context.Context) // shows, unminimises and presents the window
}

// newDesktopAttention wires the real notifier (connected on first use) and window calls; a
// click on a notification calls d.attentionClicked.
func newDesktopAttention(d *Desktop) *desktopAttention {
	return &desktopAttention{
		notes: notify.New(notify.Options{
			AppName:      "agentdesk",
			Icon:         notify.Icon("agentdesk", "dialog-information"),
			DesktopEntry: "agentdesk", // build/linux/agentdesk.desktop
			OnAction:     d.attentionClicked,
			Logf:         func(format string, args ...any) { log.Printf("agentdesk: "+format, args...) },
		}),
		urgent: setUrgencyHint,
		raise: func(ctx context.Context) {
			runtime.WindowShow(ctx)
			runtime.WindowUnminimise(ctx) // gtk_window_present: raises and focuses where the WM allows
		},
	}
}

// close ends the notifier; notifications already shown stay.
func (d *desktopAttention) close() {
	if d != nil {
		d.notes.Close()
	}
}

// NotifyAttention asks for the user's attention because of live session sessionID, whose agent
// is called agent: kind "permission" (the agent waits for a decision on title, a tool call) or
// "finished" (its turn ended; title says which session). The page calls it only while its
// window is not focused. It shows or updates the session's OS notification (rate-limited: a
// burst of permissions becomes one "N permissions waiting") and sets the window's urgency hint,
// and returns at once. Without a session bus or a notification server it does nothing but say
// so once in the log. It fails for an unknown kind or a session that is not live.
func (d *Desktop) NotifyAttention(sessionID, kind, agent, title string) error {
	k := notify.Kind(kind)
	if !k.Valid() {
		return fmt.Errorf("unknown attention kind %q (want %q or %q)", kind, notify.Permission, notify.Finished)
	}
	if _, err := d.hub.Session(sessionID); err != nil {
		return err
	}
	if d.attention == nil {
		return nil
	}
	d.attention.urgent(true)
	d.attention.notes.Post(notify.Message{Session: sessionID, Kind: k, Agent: agent, Title: title})
	return nil
}

// AttentionSeen tells that the window has the user's focus again: the notifications are
// withdrawn, the permission counts start again and the urgency hint is cleared.
func (d *Desktop) AttentionSeen() {
	if d.attention == nil {
		return
	}
	d.attention.urgent(false)
	d.attention.notes.Seen()
}

// attentionClicked is the notifier's OnAction: the user clicked the notification of sessionID,
// so the window comes up and the page focuses that session's prompt.
func (d *Desktop) attentionClicked(sessionID string) {
	d.attention.raise(d.ctx)
	d.emit(d.ctx, attentionFocusEvent, AttentionFocus{SessionID: sessionID})
}
