package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"

	"agentdesk/backend/agents"
	"agentdesk/backend/editor"
)

// OpenInEditor opens a file of a session — a tool call's location — at line (0: none) in the
// person's editor ($VISUAL, $EDITOR; a terminal editor in a terminal window) or the desktop's
// default application (backend/editor). The file must be inside the session's folders (symlinks
// followed); nothing an agent sent runs through a shell. It returns once the editor has started.
func (d *Desktop) OpenInEditor(sessionID, path string, line int) error {
	file, err := d.hub.FileInSession(d.ctx, sessionID, path)
	if err != nil {
		return fmt.Errorf("could not open it in an editor: %w", err)
	}
	l, err := editor.For(file, line, os.Getenv)
	if err != nil {
		return fmt.Errorf("could not open it in an editor: %w (fix the variable, or unset it to use the desktop's default)", err)
	}
	cmd := exec.Command(l.Argv[0], l.Argv[1:]...)
	if l.Terminal {
		term, err := agents.FindTerminal(os.Getenv("PATH"))
		if err != nil {
			return fmt.Errorf("could not open it in %s: %w", l.Argv[0], err)
		}
		cmd = term.Command(os.Environ(), l.Argv[0], l.Argv[1:])
	}
	start := d.startEditor
	if start == nil {
		start = startDetached
	}
	if err := start(cmd); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return fmt.Errorf("could not open it: %s is not installed (set $VISUAL or $EDITOR to your editor)", l.Argv[0])
		}
		return fmt.Errorf("could not open it with %s: %w", l.Argv[0], err)
	}
	return nil
}

// startDetached starts cmd and reaps it when it ends, without waiting for it.
func startDetached(cmd *exec.Cmd) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait() //nolint:errcheck // the editor's exit is none of ours
	return nil
}
