package changes

// Target is one file a revert puts back: in folder Root, Path gets the version tree From has
// (absent there: the file is removed), or Content when set (a hunk's revert), provided the file
// is now as tree Expect has it; otherwise it is a conflict: something changed it since.
type Target struct {
	Root, Path string
	From       Hash
	Expect     Hash
	Content    *string
}

// Snap is one snapshot of one folder.
type Snap struct {
	Root string
	Tree Hash
	// Notes are what the snapshot could not keep or read, worded for a person.
	Notes []string
	// Files counts the files recorded, Read those read (the rest matched the last snapshot's
	// size and time), Stored the bytes newly written to the store.
	Files, Read int
	Stored      int64
	// Partial: the snapshot was cut short (its context ended: the time budget, or a Stop).
	// What it did not reach is kept as the last snapshot had it, or left out; a note says so.
	// Its tree serves the next snapshot as a cache, not as a record of the folder.
	Partial bool
}
