// Package changes is the change ledger: what every turn of a session did to the session's
// folders, whatever wrote the files (the agent through fs/*, its own tools, a terminal, a
// subprocess, or the person), and the reverts of it.
//
// Guarantees:
//   - A snapshot records every file beneath a folder that git would not ignore (.gitignore at
//     every level, .git/info/exclude, the global excludes file), and never reads, writes or
//     lists anything inside a .git directory but .git/info/exclude: the user's repository is
//     never touched.
//   - agentdesk's own files in a session folder (Options.Own: the history file and its
//     companions; the ledger's own folder always) are never recorded nor reported changed, so a
//     session in the home folder or with --db inside the project does not record its history.
//   - The ignore rules decide what a snapshot starts to record, never what it stops recording:
//     the ignore files themselves (.gitignore, .ignore, .git/info/exclude) are always recorded,
//     and so is every name the folder's last snapshot recorded, while it exists. A turn's change
//     of the rules is in its receipt and revertable; no untouched file reads as deleted.
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
//   - A revert is judged by bytes: each file it would touch is read from disk as it is now
//     (whatever the ignore rules say) and compared with what the turn left; when any differs (a
//     conflict) it writes nothing at all.
//   - A revert looks and writes only through a chain of descriptors opened from the folder
//     down, one name at a time with O_NOFOLLOW: no symbolic link is followed, not even one that
//     stays in the folder, and nothing that could block (a FIFO, a device) is opened. A file
//     that is now a link, a folder, a FIFO, socket or device, or a hard link the snapshot did
//     not see, is a conflict. New content goes to a fresh file of a random name made with
//     O_CREAT|O_EXCL|O_NOFOLLOW, is fsync'd and renamed over the target, after the target is
//     checked once more to be the file that was compared.
package changes
