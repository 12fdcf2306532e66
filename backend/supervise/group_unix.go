//go:build unix

package supervise

import (
	"os/exec"
	"syscall"
)

// ownGroup makes c, not yet started, the leader of a process group of its own, so that a signal
// to the group reaches everything that stays in it.
func ownGroup(c *exec.Cmd) {
	if c.SysProcAttr == nil {
		c.SysProcAttr = &syscall.SysProcAttr{}
	}
	c.SysProcAttr.Setpgid = true
}

// OwnSession makes c, not yet started, the leader of a session of its own: its own process
// group (its pid is the group's id), and no controlling terminal, which an interactive shell
// would otherwise try to take over from agentdesk's and be stopped for.
func OwnSession(c *exec.Cmd) error {
	if c.SysProcAttr == nil {
		c.SysProcAttr = &syscall.SysProcAttr{}
	}
	c.SysProcAttr.Setsid = true
	return nil
}

// TermGroup sends SIGTERM to every process of group pgid: the polite step of a stop.
func TermGroup(pgid int) error { return syscall.Kill(-pgid, syscall.SIGTERM) }

// KillGroup sends SIGKILL to every process of group pgid.
func KillGroup(pgid int) error { return syscall.Kill(-pgid, syscall.SIGKILL) }
