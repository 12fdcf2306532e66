package acp

// SetServeHook makes cfg's session run hook on the worker of each fs/* and terminal/create
// request before serving it, so a test can hold workers busy.
func SetServeHook(cfg *Config, hook func(method string)) { cfg.serveHook = hook }
