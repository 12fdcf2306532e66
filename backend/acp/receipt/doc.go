// Package receipt is what a turn did, as the person reads it under the turn's end: the
// Receipt a turn_end event, a snapshot's TurnSummary and the history carry, and the Draft that
// gathers it while the turn runs.
//
// A receipt lists the commands the turn ran (the terminals the agent created and its execute
// tool calls, a terminal shown by an execute call once), the permission requests and how each
// was answered, the elicitations and how each ended, the time a person was waited on, the
// tokens the agent reported in its answer to session/prompt, what the turn cost, and the
// change ledger's account of the files it changed.
//
// Guarantees:
//   - Bounded: each list holds at most MaxItems entries and a command line at most
//     MaxCommandLine bytes (cut on a character boundary, marked "…"); what is beyond the bound
//     is counted in the More* fields, and an update to something counted counts nothing again.
//   - No secret: a receipt carries no answer a person gave (an elicitation's values stay out),
//     and its strings come from the transcript, so the hub's masker masks them with the rest of
//     the event before the page or the history sees them (hub.TestReceiptIsMasked).
//   - Stable: the JSON field names are those of the history's stored receipts; a receipt stored
//     by an earlier version reads back unchanged (TestStoredReceiptReadsBack).
//   - Overlapping waits count once: the wait clock runs while at least one request is open.
//
// A Draft is not safe for concurrent use: its owner (the session) guards it with its own lock
// and calls it only while holding it. A nil *Draft records nothing (between turns there is
// none), and Finish on it gives the receipt of the turn's answer alone. The package reads no
// clock and does no I/O: times come from the caller.
package receipt
