//go:build !linux

package terminal

import (
	"errors"
	"os"
	"os/exec"

	"agentdesk/backend/supervise"
)

// startOnPTY is Linux's (terminal_pty_linux.go): here terminal/create is refused, saying so.
func startOnPTY(c *exec.Cmd) (master, held *os.File, tr *supervise.Tree, err error) {
	return nil, nil, nil, errors.New("terminals are not supported on this OS yet: agentdesk runs agents' commands on Linux only")
}
