//go:build bindings

package main

// hasDisplay is always true when Wails builds the app only to read its bindings.
func hasDisplay() bool { return true }
