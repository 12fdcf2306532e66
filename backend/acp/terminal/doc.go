// Package terminal runs the commands an agent asks for through ACP's terminal/* methods, each on
// a PTY of its own, and filters their output for the agent and for the tool cards.
//
// Guarantees:
//   - A command runs in the session folder or a folder inside one of the session's folders (a
//     relative cwd is taken from the session folder; one outside is refused), through the user's
//     shell, with the environment the agent was launched with plus the variables the request
//     names: never agentdesk's own. It is no sandbox: the command may go anywhere itself.
//   - Each command runs under its supervisor (package supervise) as the leader of a session of
//     its own: terminal/kill and CloseAll end it and everything it started, and when the
//     connection ends every terminal still running is killed with its whole tree.
//   - The output is kept twice within the agent's byte limit (at most MaxOutput), cut on a
//     character boundary and never inside a colour sequence: plain text for the agent, and the
//     text with its colours only (DisplayBytes at most) for the card. Its views are published in
//     order; the end of the output and the exit are published before anyone is told of them.
//   - At most MaxRunning commands of a connection run and MaxWaits terminal/wait_for_exit
//     requests wait; beyond, the agent is answered at once.
//
// PTYs are Linux's here (terminal_pty_linux.go); on other systems a terminal/create is refused,
// saying so.
package terminal
