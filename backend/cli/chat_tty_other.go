//go:build !linux

package cli

import "os"

// isTerminal is Linux's (chat_tty_linux.go): elsewhere chat reads plain lines, as from a pipe.
func isTerminal(f *os.File) bool { return false }

// keysNotSignals is Linux's (chat_tty_linux.go): elsewhere no line editor runs.
func keysNotSignals(read func() (string, error)) (string, error) { return read() }
