//go:build !unix

package supervise

import "os/exec"

// ownGroup: process groups are unix's; elsewhere Supervise refuses to start anything.
func ownGroup(*exec.Cmd) {}

// OwnSession is unix's (see group_unix.go): here it fails, saying so.
func OwnSession(*exec.Cmd) error { return ErrUnsupported }

// TermGroup is unix's (see group_unix.go): here it fails, saying so.
func TermGroup(int) error { return ErrUnsupported }

// KillGroup is unix's (see group_unix.go): here it fails, saying so.
func KillGroup(int) error { return ErrUnsupported }
