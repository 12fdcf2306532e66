// Package supervisor is the supervisor process that package supervise puts under every agent
// and every terminal's command: the whole of the agentdesk-supervisor binary
// (cmd/agentdesk-supervisor), and the protocol agentdesk speaks with it (protocol.go).
//
// Guarantees:
//   - It is the subreaper of its command's tree (PR_SET_CHILD_SUBREAPER), and it kills every
//     process descended from it, also those in a new session or process group, when its command
//     exits, when agentdesk closes its control pipe, and when agentdesk dies, however (the kernel
//     closes the pipe then). It then exits as its command did: the same status, or the same signal.
//   - Its command dies with it: the command's parent-death signal is SIGKILL, from a thread that
//     lives as long as the supervisor.
//   - Before it exits it reports on its report pipe whether anything could not be killed (Report);
//     a supervisor killed before it could report says nothing, and agentdesk then knows nothing.
//   - It is small: a static Go binary that loads no shared library and imports only the standard
//     library's process and file handling (no fmt, no os/exec, no reflection), so that a session
//     pays well under 2 MiB of private memory for it (BenchmarkSupervisorMemory in
//     backend/supervise prints the figure).
//
// Supervision is Linux's (/proc, PR_SET_CHILD_SUBREAPER, pidfds are not needed); on other systems
// Main refuses with a message and the protocol's parts still build.
package supervisor
