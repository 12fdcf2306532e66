package main

import (
	"context"

	"agentdesk/backend/acp"
	"agentdesk/backend/hub"
)

// Sessions is the bound service of live sessions: start one, prompt it (with files and images:
// app_attachments.go), stop or restart its agent, answer its permission requests, read its
// state, answer its elicitations (app_elicitation.go), switch its mode, model and config options, and read its raw protocol traffic, live or
// saved (app_controls.go). A session is named by the id StartSession returned; a verb for an id
// that is not live fails with the hub's error, worded for the window (onLive and withLive,
// app_live.go, the one lookup of the live session). StartSession and the prompts return once the
// request is sent: what the agent does follows as session events (acp.EventName), with secret
// values masked. ContinueSession waits for the agent to restart (at most hub.StartTimeout).
type Sessions struct {
	*core
	folderDialog folderDialogFunc // BrowseFolder's dialog (runtime.OpenDirectoryDialog); nil: none
	openURL      urlOpener        // OpenElicitationURL's browser (runtime.BrowserOpenURL); nil: none
	fileDialog   openDialogFunc   // ChooseFileElsewhere's dialog (runtime.OpenFileDialog); nil: none
	drops        dropBox          // paths dropped on the window, until AttachDropped takes them (app_drop.go)
}

// SessionInfo describes a started session to the page: hub.SessionInfo, bound as this
// package's own type so the page's generated models keep their names.
type SessionInfo hub.SessionInfo

// StartSession starts agentID in cwd, with dirs as the session's additional folders (none:
// nil or empty), and returns at once; events follow under acp.EventName. With worktree the
// session runs in a new git worktree of cwd's repository (SessionInfo.Worktree says where),
// made before it returns, with the person's uncommitted changes when carry.
func (ss *Sessions) StartSession(agentID, cwd string, dirs []string, worktree, carry bool) (SessionInfo, error) {
	_, info, err := ss.hub.Start(hub.StartRequest{AgentID: agentID, Cwd: cwd, Dirs: dirs, Worktree: worktree, Carry: worktree && carry}, ss.pageEmitter())
	return SessionInfo(info), forWindow(err)
}

// pageEmitter sends a session's events to the page under acp.EventName. They arrive with the
// secrets masked: the hub masks a session's events before the history and the page see them
// (hub's live masking). A batch goes as one Wails event with one payload per session event (the page's
// listener receives them all, in order): during a stream that is one message per flush
// instead of one per event.
type pageEmitter struct {
	c *core
}

// The hub passes batches on only to a BatchEmitter (acp.EmitAll asserts it at run time).
var _ acp.BatchEmitter = (*pageEmitter)(nil)

// pageEmitter returns a new session's emitter.
func (c *core) pageEmitter() *pageEmitter {
	return &pageEmitter{c: c}
}

// Emit sends one event.
func (p *pageEmitter) Emit(ev acp.Event) { p.c.emit(p.c.ctx, acp.EventName, ev) }

// EmitBatch sends evs as one message.
func (p *pageEmitter) EmitBatch(evs []acp.Event) {
	data := make([]interface{}, len(evs))
	for i, ev := range evs {
		data[i] = ev
	}
	p.c.emit(p.c.ctx, acp.EventName, data...)
}

// Prompt starts a turn; it returns when the prompt is sent, and the turn ends with turn_end.
func (ss *Sessions) Prompt(sessionID, text string) error {
	return ss.onLive(sessionID, func(s *acp.Session) error {
		_, err := s.Prompt(text)
		return err
	})
}

// Stop cancels the running turn of sessionID (a no-op when none runs).
func (ss *Sessions) Stop(sessionID string) error {
	return ss.onLive(sessionID, func(s *acp.Session) error { return s.Stop() })
}

// HardStop kills the agent of sessionID and its whole process group.
func (ss *Sessions) HardStop(sessionID string) error {
	return ss.onLive(sessionID, func(s *acp.Session) error { return s.HardStop() })
}

// ContinueSession restarts the exited agent of sessionID (after a hard stop or a crash) and
// continues its conversation. It returns how: "resumed" (the agent restored its context),
// "replayed" (it replayed it), "summarised" (a new agent session, given a summary of the earlier
// turns with the next prompt) or "new" (a new agent session; there were no earlier turns).
func (ss *Sessions) ContinueSession(sessionID string) (string, error) {
	return withLive(ss.core, sessionID, func(s *acp.Session) (string, error) {
		ctx, cancel := context.WithTimeout(ss.ctx, hub.StartTimeout)
		defer cancel()
		how, err := s.Continue(ctx)
		return string(how), err
	})
}

// AnswerPermission answers an open permission request with one of its options.
func (ss *Sessions) AnswerPermission(sessionID, requestID, optionID string) error {
	return ss.onLive(sessionID, func(s *acp.Session) error { return s.AnswerPermission(requestID, optionID) })
}

// Snapshot returns the live session's whole state at its last emitted seq.
func (ss *Sessions) Snapshot(sessionID string) (acp.Snapshot, error) {
	return withLive(ss.core, sessionID, func(s *acp.Session) (acp.Snapshot, error) {
		return hub.MaskSnapshot(ss.catalog.Masker(), s.Snapshot()), nil
	})
}

// Show tells the backend which live session the window shows ("" for none, or a saved one): the
// others stream to the page in fewer, bigger batches (hub.Hub.Show). It never fails or waits.
func (ss *Sessions) Show(sessionID string) { ss.hub.Show(sessionID) }
