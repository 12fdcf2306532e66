// Package supervise starts and stops the processes agentdesk runs for agents (the agent itself,
// its terminals' commands) and owns the OS's process groups, sessions and signals for every
// package that starts one (logins too).
//
// Guarantees:
//   - Nothing an agent or a terminal's command starts outlives it: each runs under a supervisor
//     (the agentdesk-supervisor binary, package supervisor: the subreaper of its tree) that
//     kills every descendant, also those in a new session or process group, when the command
//     ends, when agentdesk stops it (Tree.Kill, Process.Close) and when agentdesk dies, however.
//   - The supervisor is the binary EnableSupervisor found (next to agentdesk's: Beside), held
//     open from then on, so that an upgrade replacing it mid-run changes nothing. When it is
//     missing, every start fails with words that name it and say how to get it: nothing runs
//     unsupervised for want of it. It is small: a static binary that loads no shared library
//     (BenchmarkSupervisorMemory prints what a session pays for it).
//   - A kill is never claimed that did not happen: Tree.Left and Process.Left report what could
//     not be killed, or that it cannot be known.
//   - Process.Close is the stop ladder (stdin closed, SIGTERM to the group, SIGKILL to the tree)
//     and returns once the agent has ended and its output is closed, even when a process that
//     could not be killed holds it open.
//   - A process's stderr is drained always (an unread pipe would block it); its tail is kept in
//     a Ring within a line and byte budget.
//
// Supervision is Linux's (PR_SET_CHILD_SUBREAPER, /proc). On other systems the package builds,
// and Start, Supervise and the group signals fail with ErrUnsupported, saying so.
package supervise

import "errors"

// ErrUnsupported: this OS has no process supervision in agentdesk yet.
var ErrUnsupported = errors.New("running agents and their commands is not supported on this OS yet: agentdesk supervises processes on Linux only")
