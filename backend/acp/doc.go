// Package acp is agentdesk's client side of the Agent Client Protocol (ACP v1): JSON-RPC 2.0 as
// newline-delimited JSON over an agent's stdin and stdout.
//
// It is built in three layers, each depending only on the one below:
//
//   - The connection (package jsonrpc): framing, the single inbound loop in wire order, calls
//     and their answers, raw lines for the journal. It knows no session. Its Handler interface
//     is the one seam to what serves the agent: here connHandler (session_inbound.go), which
//     routes each message to the session, the terminals or the file workers.
//   - The session (Session, the files session_*.go): one agent process at a time, its
//     handshake and login, turns, permissions, controls, terminals and files, and the stop
//     ladder. Its state machine and the invariants of its flags are in session_state.go. The
//     agent, the process (Transport) and the time source (AfterFunc) are injected. Its features
//     keep their data and rules in small types it holds, each with its lock contract:
//     permissionDesk, elicitationDesk and secretReplies, promptQueue, steerDesk, stopLadder and
//     the turn's receipt.Draft; the Session announces and replies. Elicitation schemas are
//     package elicit's.
//   - What the session shows: the Transcript (entries upserted by id, chunks appended) and
//     the Event stream, THE contract with the UI and the store: numbered by Seq, delivered in
//     order through the pump, an unbounded coalescing queue (event.go, pump.go). A Snapshot is
//     exactly the fold of events 1..Seq.
//
// What the session serves lives in packages of its own, which never import acp: the wire types
// (acp/schema), the agent's file requests (acp/fsys), its terminals (acp/terminal), a prompt's
// attachments (acp/attach), a turn's receipt (acp/receipt), and the processes of agents and
// commands (backend/supervise). The guarantees below hold for them too.
//
// Guarantees, for every agent whatever it sends:
//   - Wire order: notifications, agent requests and responses to our calls are handled in the
//     order they were read, so a permission request is never seen before the tool call that
//     preceded it, and a response is delivered only after every message read before it has been
//     handled.
//   - Nothing is cut short: lines have no practical length cap (only absurd lines over
//     jsonrpc.MaxLineBytes end the connection, loudly); lines that are not JSON are logged and
//     skipped.
//   - Raw is kept: every message in and out is handed to Config.Journal as the exact bytes on
//     the wire.
//   - The inbound loop never waits on the UI, the database or a person: session events go
//     through the pump, which never blocks, and permission requests are parked until answered.
//     Neither Snapshot nor anything else calls the Emitter with the session locked; a slow or
//     stuck Emitter delays only the events behind it. Checkpoint waits for the Emitter, but
//     without holding the session.
//   - Events are gap-free and never doubled: Seq goes up by one per event; a consumer that
//     replaces its state with a Snapshot and applies only the events after its Seq misses
//     nothing and repeats nothing, wherever in the stream it took it.
//   - Every permission request is answered exactly once; Stop sends session/cancel and answers
//     open requests "cancelled"; a turn is never cancelled by cancelling a Go context.
//   - Terminals the agent creates (terminal/*) run each in its own process group, keep the tail of
//     their output within the agent's byte limit (cut on a character boundary), show it live in
//     the tool cards that name them and keep showing it after release; when the agent's
//     connection ends, every terminal still running is killed with its whole group.
//   - A terminal runs in the session folder or a folder inside it (a relative cwd is taken from
//     the session folder; one outside is refused), with the environment the agent was launched
//     with (Config.Env) plus the variables the request names: never agentdesk's own environment,
//     so no secret of agentdesk's or of another agent reaches it. It is no sandbox: the command
//     may go anywhere itself.
//   - Files (fs/*) are read and written only inside the session folder, which is opened once;
//     every path is opened beneath that descriptor (openat2 with RESOLVE_BENEATH, else name by
//     name with O_NOFOLLOW), and a write's temp file and rename happen in the folder's descriptor
//     too. Links inside the folder work; none leads out, and a link swapped while a request runs
//     cannot make it read or write outside. Only regular files are read or written: a FIFO, a
//     device or a socket is refused (-32602 naming the path and what it is), and opening one never
//     blocks.
//   - Agents cannot make work pile up: fs/* and terminal/create requests run on at most 16
//     workers per connection, at most 1024 more wait in order, and any beyond are answered at
//     once that agentdesk is busy; at most 64 terminals run and 1024 terminal/wait_for_exit wait.
//     Every request is answered: Stop leaves them to finish; Close answers those still waiting
//     "the session is closing" before it stops the agent, and returns once those running are done.
//
// Errors: a refusal is a sentinel or a typed error (errors.go, attach.Error, AuthRequiredError),
// so the window and the command line word it for their own user; a failure of the agent wraps
// its cause (jsonrpc.ErrConnClosed, a *jsonrpc.Error) with context once.
//
// This package imports neither Wails nor SQLite. The app and the CLI consume its Event stream.
package acp
