//go:build linux && cgo && (dev || production)

package main

// WebKitGTK installs signal handlers of its own (JavaScriptCore's SIGSEGV, SIGBUS, SIGUSR1...)
// without SA_ONSTACK, and not always before Wails fixes them once after creating the window.
// A signal that then lands on a Go thread kills the app with "non-Go code set up signal handler
// without SA_ONSTACK flag" (seen here in about one start of four under load; wailsapp/wails
// #2134, #5506). fixSignalStacks adds SA_ONSTACK to every installed handler that lacks it; the
// app calls it again at each step of the page's start. Go's own handlers already have the flag.

/*
#include <signal.h>

static int agentdesk_fix_signal_stacks(void) {
	int fixed = 0;
	for (int s = 1; s < NSIG; s++) {
		struct sigaction sa;
		if (sigaction(s, NULL, &sa) != 0) continue;
		if (sa.sa_handler == SIG_DFL || sa.sa_handler == SIG_IGN) continue;
		if (sa.sa_flags & SA_ONSTACK) continue;
		sa.sa_flags |= SA_ONSTACK;
		if (sigaction(s, &sa, NULL) == 0) fixed++;
	}
	return fixed;
}
*/
import "C"

// fixSignalStacks gives every installed signal handler SA_ONSTACK and returns how many it
// changed. sigaction is process-wide and safe from any thread.
func fixSignalStacks() int { return int(C.agentdesk_fix_signal_stacks()) }
