//go:build !linux

package store

// lowerPriority does nothing here, and reports no thread: setpriority changes the whole
// process outside Linux.
func lowerPriority() int { return 0 }
