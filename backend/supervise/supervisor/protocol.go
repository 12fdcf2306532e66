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
	// Env marks a process started as a supervisor (StartEnv): its value starts with the pid of
	// the agentdesk that started it, so that a supervisor whose agentdesk is already gone starts
	// nothing. The supervisor removes it from its command's environment.
	Env = "AGENTDESK_SUPERVISE"
	// ControlFd is the control pipe's read end: EOF on it (agentdesk closed it, or died) is the
	// order to kill the tree.
	ControlFd = 3
	// ReportFd is the report pipe's write end: the supervisor's one line about what it left.
	ReportFd = 4
)

// StartEnv is env, the command's whole environment, as agentdesk starts its supervisor with: Env
// set, and GOMAXPROCS=1, as the supervisor needs no parallelism and each more P costs it private
// memory (~0.65 MiB with one P, ~0.75 MiB with 2, ~1.05 MiB with 16). Env's value is agentdesk's
// pid, then ",GOMAXPROCS=" and the command's own GOMAXPROCS if it had one: the supervisor gives
// the command its environment back (commandEnv).
func StartEnv(env []string, agentdesk int) []string {
	v := strconv.Itoa(agentdesk)
	if own, ok := lookup(env, "GOMAXPROCS"); ok {
		v += ownGOMAXPROCS + own
	}
	return append(env[:len(env):len(env)], Env+"="+v, "GOMAXPROCS=1")
}

// ownGOMAXPROCS comes before the command's own GOMAXPROCS in Env's value.
const ownGOMAXPROCS = ",GOMAXPROCS="

// parseEnv reads Env's value (StartEnv): agentdesk's pid, and the command's own GOMAXPROCS.
func parseEnv(v string) (agentdesk int, gomaxprocs string, had bool, err error) {
	pid, gomaxprocs, had := strings.Cut(v, ownGOMAXPROCS)
	agentdesk, err = strconv.Atoi(pid)
	return agentdesk, gomaxprocs, had, err
}

// lookup returns the value of key in env: the last one, as os/exec keeps.
func lookup(env []string, key string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
			return v, true
		}
	}
	return "", false
}

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
