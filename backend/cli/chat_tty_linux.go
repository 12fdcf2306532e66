package cli

import (
	"os"

	"golang.org/x/sys/unix"
)

// isTerminal reports whether f is a terminal.
func isTerminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}

// keysNotSignals runs read with the terminal's ISIG off, so that a Ctrl-C is a key for liner from
// the moment it prints the prompt: liner turns ISIG off only after printing it, and a Ctrl-C in
// between would be a SIGINT that stops the turn while the question stays open, holding the
// terminal. Between lines ISIG is on again (a running turn gets Ctrl-C as SIGINT).
func keysNotSignals(read func() (string, error)) (string, error) {
	was, err := unix.IoctlGetTermios(0, unix.TCGETS)
	if err != nil {
		return read()
	}
	quiet := *was
	quiet.Lflag &^= unix.ISIG
	if err := unix.IoctlSetTermios(0, unix.TCSETS, &quiet); err != nil {
		return read()
	}
	defer func() { _ = unix.IoctlSetTermios(0, unix.TCSETS, was) }()
	return read()
}
