// Package compare gives one task to several agents at once and sets what each did side by side
// (issue 33): the check command run in each session's worktree after its turn (RunCheck), and
// one row per session (Row, Summarize) from what the history keeps of it.
//
// Guarantees:
//   - A check runs through the system's sh in the session's worktree, under its supervisor
//     (package supervise): nothing it starts outlives it, and it is killed, with everything it
//     started, when its context ends (the hub's time limit, agentdesk closing). Its standard input
//     is /dev/null, so it never waits on a person.
//   - A check's output is bounded: the last MaxCheckOutput bytes of its standard output and
//     error together, with terminal control sequences removed, cut on a character boundary.
//   - A check that could not run, or did not exit by itself, has ExitCode -1 and says why.
//   - A row's figures are computed here, once: the page and the command line show them.
package compare
