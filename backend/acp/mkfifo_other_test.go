//go:build !unix

package acp_test

import "errors"

// mkfifo: no FIFOs here; the tests that need one skip.
func mkfifo(p string) error { return errors.New("no FIFOs on this OS") }
