//go:build !(linux && cgo && (dev || production))

package main

// setUrgencyHint does nothing where no GTK window exists (tests, the bindings build, a
// build without cgo, other systems); see urgency_gtk.go.
func setUrgencyHint(bool) {}
