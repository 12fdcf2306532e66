//go:build !linux

package supervise

import (
	"os/exec"
	"time"
)

// killAllFor is Linux's (supervise_linux.go); Process.Close's timing uses it everywhere.
const killAllFor = 5 * time.Second

// Beside is Linux's (supervise_linux.go): here there is no supervisor to find.
func Beside() string { return "" }

// EnableSupervisor is Linux's (supervise_linux.go): here nothing is started at all (Supervise).
func EnableSupervisor(path string) error { return nil }

// Tree is Linux's (tree_linux.go): here Supervise never returns one.
type Tree struct{}

// Supervise fails on this OS: agentdesk runs agents and terminals only where it can promise
// that nothing they start outlives them.
func Supervise(c *exec.Cmd, refuse bool) (*Tree, error) { return nil, ErrUnsupported }

// Started is Linux's (tree_linux.go).
func (t *Tree) Started(err error) {}

// Kill is Linux's (tree_linux.go).
func (t *Tree) Kill() {}

// Left is Linux's (tree_linux.go): nothing is known here.
func (t *Tree) Left(grace time.Duration) (pids []int, known bool) { return nil, false }

// WaitGroupGone is Linux's (pgroup_linux.go): here no group was ever started.
func WaitGroupGone(pgid int, d time.Duration) bool { return true }
