package terminal

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"agentdesk/backend/supervise"
)

// The size of a terminal's PTY: commands that lay out their output (progress bars, tables, ls)
// fit it to this. The card wraps longer lines.
const (
	terminalCols = 120
	terminalRows = 32
)

// startOnPTY starts c with its stdin, stdout and stderr on the slave of a new PTY, as the leader
// of a new session whose controlling terminal that is: the command sees a terminal (isatty),
// the line discipline turns a typed Ctrl-C into SIGINT for its foreground process group, and
// the session's process group (its id is the command's pid) is the one every signal of ours
// goes to. It returns the master, from which the output is read and to which input is written,
// and a slave of agentdesk's own (see Terminal.held), both non-blocking and in Go's poller, and
// the command's process tree.
//
// The PTY does not turn "\n" into "\r\n" (onlcr is off): the output keeps the line ends the
// command wrote, as through a pipe. Erasing a typed character knows UTF-8 (iutf8).
func startOnPTY(c *exec.Cmd) (master, held *os.File, tr *supervise.Tree, err error) {
	ptm, slave, err := pty.Open()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("open a terminal: %w", err)
	}
	defer slave.Close() // the command has its own copies
	if err := setupSlave(slave); err != nil {
		ptm.Close()
		return nil, nil, nil, err
	}
	m, err := pollable(ptm)
	if err != nil {
		return nil, nil, nil, err
	}
	// Opened anew rather than duplicated: non-blocking is a property of an open file, and the
	// command's stdin and stdout must block.
	held, err = os.OpenFile(slave.Name(), os.O_RDWR|syscall.O_NOCTTY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		m.Close()
		return nil, nil, nil, fmt.Errorf("open a terminal: %w", err)
	}
	c.Stdin, c.Stdout, c.Stderr = slave, slave, slave
	if c.SysProcAttr == nil {
		c.SysProcAttr = &syscall.SysProcAttr{}
	}
	c.SysProcAttr.Setsid, c.SysProcAttr.Setctty, c.SysProcAttr.Ctty = true, true, 0 // fd 0: the slave
	// The supervisor leads the session, and nothing the command starts outlives it (package supervise).
	if tr, err = supervise.Supervise(c, false); err != nil {
		m.Close()
		held.Close()
		return nil, nil, nil, err
	}
	err = c.Start()
	tr.Started(err)
	if err != nil {
		m.Close()
		held.Close()
		return nil, nil, nil, err
	}
	return m, held, tr, nil
}

// setupSlave sets the window size and the line discipline's modes of a new PTY.
func setupSlave(slave *os.File) error {
	if err := pty.Setsize(slave, &pty.Winsize{Rows: terminalRows, Cols: terminalCols}); err != nil {
		return fmt.Errorf("size the terminal: %w", err)
	}
	fd := int(slave.Fd())
	tio, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return fmt.Errorf("read the terminal's modes: %w", err)
	}
	tio.Oflag &^= unix.ONLCR
	tio.Iflag |= unix.IUTF8
	if err := unix.IoctlSetTermios(fd, unix.TCSETS, tio); err != nil {
		return fmt.Errorf("set the terminal's modes: %w", err)
	}
	return nil
}

// pollable returns the master as a non-blocking file in Go's poller, closing f: pty.Open's
// ioctls (through Fd) left it blocking, and a blocking Read can be neither ended by Close (stop
// needs that when a background process holds the slave open) nor given a deadline (input).
func pollable(f *os.File) (*os.File, error) {
	fd, err := unix.FcntlInt(f.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	f.Close()
	if err == nil {
		err = unix.SetNonblock(fd, true)
	}
	if err != nil {
		if fd >= 0 {
			unix.Close(fd)
		}
		return nil, fmt.Errorf("open a terminal: %w", err)
	}
	return os.NewFile(uintptr(fd), "/dev/ptmx"), nil
}
