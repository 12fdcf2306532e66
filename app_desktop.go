package main

import (
	"context"
	"os/exec"
)

// Desktop is the bound service of the window's place on the desktop: getting the user's
// attention while the window is not focused (NotifyAttention, AttentionSeen: app_notify.go) and
// the real-window self-test's report (SelfTestDone: app_selftest.go). Its verbs return at once;
// without a notifier (tests, no session bus) the attention verbs check their arguments and do
// nothing else.
type Desktop struct {
	*core
	attention *desktopAttention         // OS notifications and the urgency hint; nil = none
	self      selfTest                  // the smoke test's report file; zero = disabled
	quitApp   func(ctx context.Context) // runtime.Quit: a confirmed quit, the self-test's end
	// startEditor starts the editor OpenInEditor chose (app_editor.go); nil: startDetached.
	startEditor func(*exec.Cmd) error
}
