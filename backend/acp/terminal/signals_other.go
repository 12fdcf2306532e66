//go:build !unix

package terminal

import "syscall"

// signalNames: no signal ends a command here.
var signalNames = map[syscall.Signal]string{}
