package changes

import (
	"agentdesk/backend/acp/schema"
)

// TurnView is one turn of a session as the Changes view lists it: what the turn changed on
// disk (from its start and end snapshots) and the reverts made of it since.
type TurnView struct {
	Turn       int    `json:"turn"`
	Prompt     string `json:"prompt"`
	StartedAt  int64  `json:"startedAt"` // unix ms
	StopReason string `json:"stopReason"`
	// Changes is what the ledger saw; Changes.Error says why nothing was recorded.
	Changes schema.TurnChanges `json:"changes"`
	Reverts []RevertView       `json:"reverts"`
}

// SessionView is a session's whole change history (SessionChanges).
type SessionView struct {
	SessionID string     `json:"sessionId"`
	Turns     []TurnView `json:"turns"`
	// Running: a turn of the session is running now, so nothing of it can be reverted.
	Running bool `json:"running"`
}

// Hunk is one hunk of a file's diff: lines are prefixed ' ', '+' or '-'.
type Hunk struct {
	Index    int      `json:"index"`
	OldStart int      `json:"oldStart"`
	OldLines int      `json:"oldLines"`
	NewStart int      `json:"newStart"`
	NewLines int      `json:"newLines"`
	Lines    []string `json:"lines"`
}

// FileDiff is one file of a turn: its content before and after the turn (text files only) and
// the hunks between them (ChangeDiff).
type FileDiff struct {
	schema.ChangedFile
	// Before and After are the file's text at the turn's start and end; nil when it did not
	// exist then, or when it is binary or too big (Binary, TooBig say which).
	Before *string `json:"before"`
	After  *string `json:"after"`
	Hunks  []Hunk  `json:"hunks"`
}

// Revert scopes.
const (
	ScopeTurn  = "turn"  // undo what turn Turn changed, nothing later
	ScopeSince = "since" // put the folders back as they were before turn Turn (later turns too)
	ScopeFile  = "file"  // undo what turn Turn did to one file
	ScopeHunk  = "hunk"  // undo one hunk of what turn Turn did to one file
	ScopeUndo  = "undo"  // put back what revert Revert replaced (UndoRevert)
)

// RevertRequest says what to revert: Scope with Turn, and Root+Path for a file or a hunk (Hunk
// is its Index in ChangeDiff's hunks).
type RevertRequest struct {
	SessionID string `json:"sessionId"`
	Turn      int    `json:"turn"`
	Scope     string `json:"scope"`
	Root      string `json:"root,omitempty"`
	Path      string `json:"path,omitempty"`
	Hunk      int    `json:"hunk,omitempty"`
	// Revert is the id of the revert an undo undoes (ScopeUndo only).
	Revert string `json:"revert,omitempty"`
}

// Plan actions for one file.
const (
	ActionRestore = "restore" // write the file's earlier content
	ActionDelete  = "delete"  // remove a file the turn added
	ActionSkip    = "skip"    // already as it should be, or cannot be restored (Reason says which)
)

// PlannedFile is what a revert does (or would do) to one file. Conflict, when set, says what
// changed the file after the turn (the revert would overwrite it); a plan with any conflict is
// not carried out.
type PlannedFile struct {
	Root     string `json:"root"`
	Path     string `json:"path"`
	Action   string `json:"action"`
	Conflict string `json:"conflict,omitempty"`
	Reason   string `json:"reason,omitempty"`
	// Diff is the unified diff from the file as it is now to what the revert writes (text only).
	Diff string `json:"diff,omitempty"`
}

// Plan is a revert's preview, or what a revert did (Done).
type Plan struct {
	Request   RevertRequest `json:"request"`
	Files     []PlannedFile `json:"files"`
	Conflicts int           `json:"conflicts"`
	// Done: the revert was carried out and recorded as RevertID (it can be undone).
	Done     bool   `json:"done"`
	RevertID string `json:"revertId,omitempty"`
}

// RevertView is a recorded revert: what it was asked to do, when, and whether it has been undone.
type RevertView struct {
	ID      string        `json:"id"`
	Request RevertRequest `json:"request"`
	At      int64         `json:"at"` // unix ms
	Files   []string      `json:"files"`
	Undone  bool          `json:"undone"`
}

// FileTouch is one turn of one session that changed a file (FileSessions): "which sessions
// touched this file".
type FileTouch struct {
	SessionID string `json:"sessionId"`
	Title     string `json:"title"`
	AgentName string `json:"agentName"`
	Turn      int    `json:"turn"`
	Change    string `json:"change"`
	At        int64  `json:"at"` // unix ms
}
