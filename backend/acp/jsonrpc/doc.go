// Package jsonrpc is one JSON-RPC 2.0 peer over newline-delimited JSON: one message per line on
// a reader and a writer, as ACP speaks it over an agent's stdin and stdout. It is symmetric:
// agentdesk uses it towards agents, and the Demo agent and the tests' agents towards agentdesk.
// It knows no ACP method but the cancellation notification ($/cancel_request) a Pending sends
// when its caller stops waiting; sessions, transcripts and events are package acp's.
//
// Guarantees, whatever the peer sends:
//   - Wire order: notifications, requests and responses are handled by one inbound loop in the
//     order they were read, and a response reaches its caller only after every message read
//     before it has been handed to the Handler.
//   - Nothing is cut short: a line may be as long as MaxLineBytes (only a longer one ends the
//     connection, with ErrLineTooLong); a line that is not a JSON-RPC message (not JSON, or
//     with neither id nor method) is skipped, counted (Skipped) and logged, and the connection goes on.
//   - A huge line costs its size once: one longer than the reader's buffer is gathered outside the
//     Go heap where the system allows (stage.go) and joined into one allocation of its size, and
//     values decoded from it share its memory (RawView) or copy only their text (Text).
//   - Raw is kept: every message in and out is handed to the Tap as the exact bytes of its line.
//   - Nothing is dropped: at most 1024 decoded messages, holding under MaxReadAheadBytes (a
//     longer line alone), wait for the inbound loop; beyond that the reader stops reading, which
//     pushes back on the peer through its pipe.
//   - The inbound loop never waits on the peer: everything we send goes through one ordered
//     outbound queue, written by a goroutine of its own, so the wire order is the order of
//     sending. Answers (Request.Reply) are queued without waiting; Start and Notify wait for
//     their write. A peer that stops reading while the queue passes MaxQueuedMessages or
//     MaxQueuedBytes ends the connection with ErrPeerNotReading: never a deadlock, never an
//     unbounded queue.
//   - Every inbound request is answered at most once (Request.Reply), whoever answers first; a
//     request that does not decode (nested deeper than encoding/json's 10,000 levels, a field of
//     the wrong type) is answered -32600 with its id, and a response that does not decode fails
//     its call with the reason, instead of being skipped as noise.
//   - A call waits only as long as its context; then the peer is sent $/cancel_request and a
//     late answer is journaled and dropped. A call on a connection that has ended fails at once
//     with an error wrapping ErrConnClosed and the cause of the end.
package jsonrpc
