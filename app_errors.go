package main

import (
	"errors"
	"fmt"
	"strings"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/attach"
	"agentdesk/backend/agents"
	"agentdesk/backend/hub"
	"agentdesk/backend/registry"
	"agentdesk/backend/store"
)

// The window's words for the engine's and the hub's errors. Those state what happened (see
// backend/acp/errors.go); here each refusal gains what the window's user can do about it, in
// the window's own terms (its buttons, its history). The command line words the same errors for
// its user in backend/cli/words.go.

// windowError is an error as the window shows it; errors.Is and errors.As still find the
// engine's error underneath.
type windowError struct {
	text string
	err  error
}

var _ error = (*windowError)(nil)

func (e *windowError) Error() string { return e.text }
func (e *windowError) Unwrap() error { return e.err }

// forWindow returns err with the window's words, or err itself when the window has nothing to
// add (nil stays nil). Every bound verb that reaches the hub or a session passes its error
// through it once.
func forWindow(err error) error {
	if err == nil {
		return nil
	}
	if _, worded := err.(*windowError); worded { // worded already (elicitationForWindow): once is enough
		return err
	}
	if text := windowWords(err); text != "" {
		return &windowError{text: text, err: err}
	}
	return err
}

// windowWords is the window's text for err, or "" to show err as it is.
func windowWords(err error) string {
	var (
		state   *acp.StateError
		refused *attach.Error
		login   *acp.TerminalLoginError
		folder  *hub.FolderError
		timeout *acp.StartTimeoutError
		unknown *agents.UnknownError
	)
	if text := queueWords(err); text != "" { // app_queue.go
		return text
	}
	switch {
	case errors.As(err, &timeout):
		return timeout.Error() + ": try again; if it happens again, run the agent's command in a terminal to see what it waits for (a download, a login)"
	case errors.Is(err, acp.ErrStartCancelled):
		return "the start was cancelled: start again when you are ready"
	case errors.Is(err, acp.ErrBusy):
		return "the agent is still starting: send the prompt once it is ready"
	case errors.As(err, &state) && state.Err == acp.ErrNotExited:
		return fmt.Sprintf("only a session whose agent has exited can be continued (this one is %s)", state.State)
	case errors.As(err, &state) && state.Err == acp.ErrEnded:
		return fmt.Sprintf("the session has %s: start a new session", state.State)
	case errors.Is(err, hub.ErrNoLiveSession):
		return err.Error() + "; open it from the history"
	case errors.Is(err, hub.ErrStarted):
		return "the agent has started meanwhile: close the session instead"
	case errors.Is(err, hub.ErrNoFolder):
		return "choose a project folder for the session"
	case errors.Is(err, hub.ErrNoCommandLine):
		return err.Error() + ": continue it in another agent (Continue in…), or start a new session"
	case errors.As(err, &unknown):
		return err.Error() + ": add the agent again, or continue the session in another agent (Continue in…)"
	case errors.Is(err, registry.ErrNoInstallFolder):
		return err.Error() + ": set HOME (or XDG_DATA_HOME) for agentdesk and start it again"
	case errors.Is(err, store.ErrOwned):
		return err.Error() + ": close it there first (end that command, or close it in that window), then continue it here; " +
			"or fork it (\"Fork from here\") to go on in a copy beside it"
	case errors.As(err, &folder):
		return folder.Error() + ": choose an existing project folder"
	case errors.As(err, &login):
		return fmt.Sprintf("auth method %q is a terminal login: run the agent's command with %q in a terminal, then start again without choosing a method",
			login.Method, strings.Join(login.Args, " "))
	case errors.As(err, &refused):
		if advice := attachAdvice[refused.Reason]; advice != "" {
			return refused.Error() + ": " + advice
		}
	}
	return ""
}

// attachAdvice is what the window's user does about a refused attachment, by reason.
var attachAdvice = map[attach.Reason]string{
	attach.NoPath:        "pick a file of the session folder",
	attach.Outside:       "attach files from inside it (links are followed)",
	attach.Missing:       "pick it again",
	attach.IsFolder:      "attach the files in it instead",
	attach.ImagesRefused: "remove the image, or save it in the session folder and attach the file",
	attach.NotImage:      "paste an image (PNG, JPEG, GIF or WebP)",
	attach.BadData:       "paste it again",
	attach.TooLarge:      "paste a smaller one",
}
