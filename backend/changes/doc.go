// Package changes is the change ledger: what every turn of a session did to the session's
// folders, whatever wrote the files (the agent through fs/*, its own tools, a terminal, a
// subprocess, or the person), and the reverts of it.
//
// Guarantees:
//   - A snapshot records every file beneath a folder that git would not ignore (.gitignore at
//     every level, .git/info/exclude, the global excludes file), and never reads, writes or
//     lists anything inside a .git directory: the user's repository is never touched.
//   - A snapshot never blocks: every name is opened relative to its open folder (openat) with
//     O_NONBLOCK|O_NOFOLLOW and its type checked with fstat on the descriptor; a FIFO, socket
//     or device, ignore files included, is named in a note and not recorded. A snapshot whose
//     context ends (its budget, a Stop) is cut short with a note (Snap.Partial); one stuck in a
//     system call is left behind, and Snapshot returns shortly after its context ends.
//   - Content is kept in a content-addressed store in agentdesk's data dir, deduplicated
//     across turns, sessions and folders; a snapshot with one changed file stores that file and
//     the few directory records above it, not the project. Tiny content rides in its
//     directory's record (no disk block per tiny file); older ledgers still read.
//   - Files over the size cap (and, past the per-snapshot budget, every further new file) are
//     listed with their size and time but not kept: their changes are shown, never reverted,
//     and a note says so.
//   - A revert writes only beneath the session's folders (through os.Root: no symlink or ..
//     leads out), and writes nothing at all when any file it would touch changed after the
//     snapshot it expects (a conflict).
package changes
