package main

import (
	"fmt"

	"agentdesk/backend/acp"
)

// The attachment verbs of Sessions: a prompt with files of the session folder and pasted
// images, and the file list the composer's picker shows.

// maxFolderFiles is how many files one ListFolderFiles call returns at most.
const maxFolderFiles = 50

// PromptWith starts a turn with text and attachments (files of the session folder, by path
// relative to it or absolute; pasted images as base64 with their MIME type). It returns when the
// prompt is sent; an attachment the agent cannot take fails it, naming the attachment and what
// to do, and nothing is sent.
func (ss *Sessions) PromptWith(sessionID, text string, attachments []acp.Attachment) error {
	s, err := ss.hub.Session(sessionID)
	if err != nil {
		return forWindow(err)
	}
	_, err = s.PromptWith(text, attachments)
	return forWindow(err)
}

// ListFolderFiles lists up to 50 files of the live session's folder matching query (best
// first; an empty query lists those nearest the top), for the attachment picker.
func (ss *Sessions) ListFolderFiles(sessionID, query string) ([]acp.FolderFile, error) {
	s, err := ss.hub.Session(sessionID)
	if err != nil {
		return nil, forWindow(err)
	}
	files, err := s.FindFiles(query, maxFolderFiles)
	if err != nil {
		return nil, fmt.Errorf("could not list the files of %s: %w", s.Cwd(), err)
	}
	return files, nil
}
