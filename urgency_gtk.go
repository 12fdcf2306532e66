//go:build linux && cgo && (dev || production)

package main

// The window's urgency hint (X11's XUrgencyHint: taskbars and docks flash or mark the window):
// GTK's gtk_window_set_urgency_hint on agentdesk's toplevel window. Built only where Wails
// itself links GTK (the dev and production tags; never for `go test` or the bindings build).
// GTK may only be called on its main thread, so the call is queued there with g_idle_add,
// which is thread-safe, as Wails does for its own window calls. Wayland has no urgency
// hint; there the notification is what asks for attention.

/*
#cgo linux pkg-config: gtk+-3.0
#include <gtk/gtk.h>

// agentdesk_set_urgency runs on the GTK main thread: it sets (data != 0) or clears the urgency
// hint of every normal toplevel window (agentdesk has one), leaving a focused one alone.
static gboolean agentdesk_set_urgency(gpointer data) {
	gboolean on = GPOINTER_TO_INT(data);
	GList *all = gtk_window_list_toplevels();
	for (GList *l = all; l != NULL; l = l->next) {
		GtkWindow *w = GTK_WINDOW(l->data);
		if (gtk_window_get_window_type(w) != GTK_WINDOW_TOPLEVEL) continue;
		if (on && gtk_window_is_active(w)) continue;
		gtk_window_set_urgency_hint(w, on);
	}
	g_list_free(all);
	return G_SOURCE_REMOVE;
}

static void agentdesk_request_urgency(int on) {
	g_idle_add(agentdesk_set_urgency, GINT_TO_POINTER(on));
}
*/
import "C"

// setUrgencyHint sets or clears the window's urgency hint. It returns at once: the change is
// made on the GTK main thread.
func setUrgencyHint(on bool) {
	v := 0
	if on {
		v = 1
	}
	C.agentdesk_request_urgency(C.int(v))
}
