//go:build !bindings

package main

import "os"

// hasDisplay reports whether a window can open. Builds for `wails generate module` (the bindings
// tag) never open one, so they skip the check (display_bindings.go).
func hasDisplay() bool { return os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != "" }
