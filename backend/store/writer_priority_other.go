//go:build !linux

package store

// lowerPriority does nothing here: setpriority changes the whole process outside Linux.
func lowerPriority() {}
