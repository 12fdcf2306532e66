// Package cli is agentdesk's headless command line (run, chat, history, show, changes, revert,
// apply, discard, compare, usage, rules, audit, export, diagnostics, delete, agents, registry, demo-agent, help and shell
// completion),
// built on cobra: subcommands, POSIX flags before or after the arguments, generated help for
// every command. main enters it with Run when IsCommand says the arguments
// name a command, and hands it the build's seams in Options. It drives the same core as the
// window (backend/hub) on the same history, and imports no Wails.
//
// Guarantees:
//
//   - The exit code is the contract scripts rely on: ExitOK, ExitFailed, ExitUsage (a wrong
//     command line, told with the command's usage line) and ExitNotSaved (run's turn ended well
//     but its session is not wholly in the history).
//   - Nothing it prints holds a secret value stored for the agents: run's output streams are
//     masked as bytes (a value cut across writes too), and history, show and usage mask what
//     they read, also from sessions saved before the value was a secret.
//   - Nothing it prints reaches a terminal as a control: every command writes on a screen
//     (screen.go) that removes an agent's escape sequences, drops control characters and
//     carriage returns, and spells out bidi overrides and invisible characters (<U+202E>);
//     JSON output escapes them instead and carries the text exactly; export -o is exact.
//   - A command that only reads the history (history, show, usage, completion) also reads a copy it
//     cannot write; completion opens it read-only and never creates it.
//   - run never waits for ever on a person who is not there: with --permissions ask and stdin at
//     its end, a permission request stops the turn and says so.
package cli
