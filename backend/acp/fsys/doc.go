// Package fsys serves an agent's file requests (fs/read_text_file, fs/write_text_file) and the
// file picker, confined to a session's folders, and holds the descriptor-relative file helpers
// the change ledger shares (CreateTempAt, ReadLinkAt, TempName, FileKind).
//
// Guarantees:
//   - Files are read and written only inside the session's folders, each opened once; every
//     path is opened beneath that descriptor (openat2 with RESOLVE_BENEATH, else name by name
//     with O_NOFOLLOW), and a write's temp file and rename happen in the folder's descriptor too.
//     Links inside the folder work; none leads out, and a link swapped while a request runs
//     cannot make it read or write outside.
//   - Only regular files are read or written: a FIFO, a device or a socket is refused (-32602
//     naming the path and what it is), and opening one never blocks.
//   - A write is atomic (a temp file renamed over the file) and keeps an existing file's mode.
//   - FindFiles leaves out what git would ignore (the folder's ignore files, info/exclude, the
//     global excludes file) and never reads an ignored folder.
//
// Methods do file I/O: call them off the connection's inbound loop. It imports no session.
package fsys
