//go:build !(linux && cgo && (dev || production))

package main

// fixSignalStacks does nothing where no WebKit runs (tests, the bindings build); see
// signals_gtk.go.
func fixSignalStacks() int { return 0 }
