package main

import (
	"errors"
	"fmt"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/attach"
	"agentdesk/backend/acp/fsys"
)

// The attachment verbs of Sessions: a prompt with files of the session folder and pasted
// images, and the file list the composer's picker shows.

// maxFolderFiles is how many files one ListFolderFiles call returns at most.
const maxFolderFiles = 50

// PromptWith starts a turn with text and attachments (files of the session folder, by path
// relative to it or absolute; pasted images as base64 with their MIME type). It returns when the
// prompt is sent; an attachment the agent cannot take fails it, naming the attachment and what
// to do, and nothing is sent.
func (ss *Sessions) PromptWith(sessionID, text string, attachments []attach.Attachment) error {
	return ss.onLive(sessionID, func(s *acp.Session) error {
		_, err := s.PromptWith(text, attachments)
		return err
	})
}

// ListFolderFiles lists up to 50 files of the live session's folder matching query (best
// first; an empty query lists those nearest the top), for the attachment picker.
func (ss *Sessions) ListFolderFiles(sessionID, query string) ([]fsys.FolderFile, error) {
	return withLive(ss.core, sessionID, func(s *acp.Session) ([]fsys.FolderFile, error) {
		files, err := s.FindFiles(query, maxFolderFiles)
		if err != nil {
			return nil, fmt.Errorf("could not list the files of %s: %w", s.Cwd(), err)
		}
		return files, nil
	})
}

// ChooseFileElsewhere asks the person, in the system's open dialog, for a file from outside the
// live session's folders to attach, and lets the session attach it (acp.Session.AllowFile): only
// a file chosen so is ever read from outside them. It returns the file for the composer, or a zero
// FolderFile when the person cancelled.
func (ss *Sessions) ChooseFileElsewhere(sessionID string) (fsys.FolderFile, error) {
	return withLive(ss.core, sessionID, func(s *acp.Session) (fsys.FolderFile, error) {
		if ss.fileDialog == nil {
			return fsys.FolderFile{}, errors.New("there is no window to show an open dialog in")
		}
		path, err := ss.fileDialog(ss.ctx, runtime.OpenDialogOptions{Title: "Attach a file from outside the session folder",
			DefaultDirectory: exportFolder("")})
		if err != nil {
			return fsys.FolderFile{}, fmt.Errorf("could not open the file dialog: %w", err)
		}
		if path == "" {
			return fsys.FolderFile{}, nil
		}
		return s.AllowFile(path)
	})
}
