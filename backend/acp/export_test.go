package acp

// SetServeHook makes cfg's session run hook on the worker of each fs/* and terminal/create
// request before serving it, so a test can hold workers busy.
func SetServeHook(cfg *Config, hook func(method string)) { cfg.serveHook = hook }

// WithoutOpenat2 makes every fs/* open walk name by name, as where the kernel has no openat2,
// until the test ends.
func WithoutOpenat2(t interface{ Cleanup(func()) }) {
	openat2Missing.Store(true)
	t.Cleanup(func() { openat2Missing.Store(false) })
}
