package schema

// agentdesk's own record of what a turn did to the session's folders, as the change ledger
// sees it: it rides on a turn's receipt to the page and the history.

// Change kinds of a ChangedFile.
const (
	ChangeAdded    = "added"
	ChangeModified = "modified"
	ChangeDeleted  = "deleted"
	ChangeRenamed  = "renamed"
)

// ChangedFile is one file a turn added, modified, deleted or renamed on disk.
type ChangedFile struct {
	// Root is the session folder the file is in (the working folder or an additional one),
	// Path its slash-separated path beneath Root; From the old path of a rename.
	Root   string `json:"root"`
	Path   string `json:"path"`
	From   string `json:"from,omitempty"`
	Change string `json:"change"` // Change*
	// Added and Removed count lines (0 for a binary file or one too big to keep).
	Added   int  `json:"added"`
	Removed int  `json:"removed"`
	Binary  bool `json:"binary,omitempty"`
	// TooBig: the file was over the ledger's size cap: the change is listed but cannot be
	// shown or reverted.
	TooBig bool `json:"tooBig,omitempty"`
}

// TurnChanges is what the change ledger saw a turn do to the session's folders.
type TurnChanges struct {
	Files []ChangedFile `json:"files,omitempty"`
	// More counts the changed files left out of Files (a receipt lists at most a few hundred).
	More int `json:"more,omitempty"`
	// Notes are what the ledger could not keep (a file over the cap, a turn over its budget),
	// worded for a person.
	Notes []string `json:"notes,omitempty"`
	// Error says why the turn's changes could not be recorded at all.
	Error string `json:"error,omitempty"`
}
