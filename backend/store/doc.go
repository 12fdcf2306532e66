// Package store is agentdesk's local history: one SQLite file (pure Go, modernc.org/sqlite)
// holding every session, its turns, its reduced transcript entries, its permission requests
// and their decisions, and the raw JSON-RPC journal. It knows rows, not ACP, and imports no
// other agentdesk package.
//
// Guarantees:
//
//   - Open creates the file (mode 0600, folder 0700), runs the embedded numbered migrations
//     (each in its own transaction, recorded in PRAGMA user_version, idempotent) and marks turns
//     left open by a crash as "interrupted" (unless another live Store has the file open: an
//     flock on "<db>.lock" tells). It refuses files that are not agentdesk databases (not
//     SQLite, damaged, another program's, or from a newer agentdesk) and never deletes or
//     rewrites them. OpenOrRecover moves such a file aside ("<db>.corrupt-<time>") and starts
//     a new history, once; other failures (permissions, full disk) move nothing.
//   - The Writer is the only write path while sessions run. Its methods never block on the
//     database: they append to an unbounded in-memory queue and return. One goroutine commits
//     the queue in call order, in batches of one transaction each: after a short delay, when
//     enough operations are queued, and at once for turn ends, outcomes, permission
//     decisions, Flush and Close. DeleteSession and RenameSession go through the same queue
//     and wait for their own commit.
//   - A failed write is reported to the error handler and returned by the next Flush; the other
//     operations of its batch are still committed, and the writer keeps going. When the
//     database cannot be written at all (disk full, read-only, I/O error), the whole batch is
//     lost and reported once, without retries; later operations are tried as they come, and
//     succeed once the disk is writable again.
//   - Once Flush returns nil, everything queued before it is durable in the WAL
//     (synchronous=NORMAL: it survives a crash of the process; a power loss may lose the last
//     commits but never corrupts the file).
//   - A turn end (EndTurn) and an outcome (SetOutcome) are committed in the first batch the
//     writer takes after them, at once, and that commit is synced to disk (synchronous=FULL for
//     that batch): once it is done the whole turn survives a SIGKILL and a power loss. A Flush
//     queued after EndTurn returns once it is done. The page shows the stop reason without
//     waiting for the store (a stuck disk must never stall a session), so it can show it
//     before the commit by as long as the writer is behind; appends in linear time keep that
//     short in a flood, and Close after a 500,000-chunk message takes seconds.
//   - Appending streamed text costs time linear in the text, however long the entry grows: an
//     entry's text is entries.text followed by pieces of about 32 KiB (pieces.go), and a batch
//     rewrites and re-indexes at most the last piece of an entry besides the text it adds. (A
//     500,000-chunk message used to be rewritten whole every batch: minutes of writes after
//     its turn had ended.) Reads return the whole text, as it was appended.
//   - The full-text index follows the entries in the same transaction: the writer updates it at
//     the end of each batch (searchindex.go), so a search never finds an entry's old text or a
//     deleted session, and misses nothing committed, a streaming entry's text included. The
//     words of a query match within one entry, a long one's pieces included (spreadHits).
//   - Redact (and Claim's settling of a dead owner's session, which is live nowhere) is the one
//     write besides the Writer's while sessions run: it rewrites text already
//     saved (secret values older versions kept in clear) in its own transaction on the store's
//     one connection, so between the writer's batches, keeping the index in step. What it
//     replaces does not stay in the file (secure_delete, the indexes merged, the WAL truncated
//     when no other process reads). A named pass runs once per file.
//   - One session, one owner (owner.go): Claim gives one process at a time the lease of a
//     session (an flock on "<db>.owners/<hash of its id>", which names the owner); a second
//     claim, from another process or the same Store, fails with an *OwnedError naming the owner
//     (what it is, its pid, since when). A lease whose process died, even by SIGKILL, is taken
//     over, and the turns that owner left open are settled as interrupted.
//   - Reads are plain queries on committed data; they are safe to call concurrently with the
//     writer and see a write only after it has been committed (call Writer.Flush first to read
//     your own writes).
//
// Times are stored as unix milliseconds and returned in the local time zone.
package store
