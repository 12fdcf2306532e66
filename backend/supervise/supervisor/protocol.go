package supervisor

import (
	"strconv"
	"strings"
	"time"
)

// The protocol between agentdesk (package supervise) and the supervisor. agentdesk starts the
// binary named Name with argv [Name, command's path, command's argv...], Env set to its own pid,
// the control pipe's read end as ControlFd and the report pipe's write end as ReportFd. It closes
// the control pipe to have the tree killed; the supervisor writes one Report line, then exits.
const (
	// Name is the supervisor binary's file name, next to agentdesk's, and its argv[0] (what ps
	// and e2e/perf.mjs see).
	Name = "agentdesk-supervisor"
	// Env marks a process started as a supervisor; its value is the pid of the agentdesk that
	// started it, so that a supervisor whose agentdesk is already gone starts nothing. The
	// supervisor removes it from its command's environment.
	Env = "AGENTDESK_SUPERVISE"
	// ControlFd is the control pipe's read end: EOF on it (agentdesk closed it, or died) is the
	// order to kill the tree.
	ControlFd = 3
	// ReportFd is the report pipe's write end: the supervisor's one line about what it left.
	ReportFd = 4
)

// KillAllFor bounds how long a supervisor tries to kill its descendants (a fork bomb may outrun
// one round of kills); those still running then are reported.
const KillAllFor = 5 * time.Second

// Report is the line a supervisor writes before it exits: "killed" when every descendant is
// gone, else "left" and the pids still running.
func Report(left []int) string {
	if len(left) == 0 {
		return "killed\n"
	}
	b := []byte("left")
	for _, pid := range left {
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(pid), 10)
	}
	return string(append(b, '\n'))
}

// ParseReport reads what a supervisor reported (Report): the pids it left, and whether it
// reported at all (known is false for anything else, as from a supervisor killed before it
// could report).
func ParseReport(raw string) (left []int, known bool) {
	word, rest, _ := strings.Cut(strings.TrimSpace(raw), " ")
	switch word {
	case "killed":
		return nil, true
	case "left":
		for _, f := range strings.Fields(rest) {
			if pid, err := strconv.Atoi(f); err == nil {
				left = append(left, pid)
			}
		}
		return left, true
	}
	return nil, false
}
