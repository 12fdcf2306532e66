package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/agents"
	"agentdesk/backend/hub"
	"agentdesk/backend/store"
)

// The command line's words for the engine's and the hub's errors. Those state what happened
// (backend/acp/errors.go); here each gains what the command line's user can do about it, in
// its own terms (flags, Ctrl-C, running again). The window words the same errors for its user
// (the root's app_errors.go).

// describe is err as run prints it: the error, then on a line of its own what to do (hint).
func describe(err error, agent agents.Agent) string {
	if h := hint(err, agent); h != "" {
		return err.Error() + "\n" + h
	}
	return err.Error()
}

// hint is what the user of the command line can do about err, or "" when the error says it all.
// agent is the session's agent (for the command of a terminal login).
func hint(err error, agent agents.Agent) string {
	var (
		auth    *acp.AuthRequiredError
		login   *acp.TerminalLoginError
		state   *acp.StateError
		folder  *hub.FolderError
		timeout *acp.StartTimeoutError
		unknown *agents.UnknownError
	)
	switch {
	case errors.As(err, &unknown):
		return "`agentdesk agents` lists the agents there are; a saved session whose agent is gone can go on in another one " +
			"from the window (Continue in…)"
	case errors.Is(err, hub.ErrNoCommandLine):
		return "start a new session with --agent-cmd (the saved one stays in the history); " +
			"or go on in another agent from the window (Continue in…)"
	case errors.As(err, &timeout):
		return "run again; if it happens again, run the agent's command in a terminal to see what it waits for (a download, a login)"
	case errors.As(err, &auth):
		if len(auth.Methods) == 0 {
			return "log in as the agent's documentation says, then run again"
		}
		ids := make([]string, len(auth.Methods))
		for i, m := range auth.Methods {
			ids[i] = m.ID
		}
		return "log in: run again with --auth METHOD_ID (" + strings.Join(ids, ", ") + ")"
	case errors.As(err, &login):
		cmd, args, lerr := agents.LoginCommand(agent, login.Args)
		if lerr != nil {
			return "run the agent's login command in a terminal, then run again without --auth"
		}
		return fmt.Sprintf("run `%s` in a terminal, then run again without --auth", strings.Join(append([]string{cmd}, args...), " "))
	case errors.Is(err, acp.ErrBusy):
		return "the agent is still starting; try again once it is ready"
	case errors.As(err, &state) && state.Err == acp.ErrEnded:
		return "run again to start a new session"
	case errors.Is(err, hub.ErrNoFolder):
		return "give the project folder with --cwd DIR"
	case errors.As(err, &folder):
		return "give an existing project folder with --cwd DIR"
	case errors.Is(err, store.ErrOwned):
		return "close it there first (end that command, or close it in the window), then run again; " +
			"or fork it in the agentdesk window (\"Fork from here\") to go on in a copy beside it"
	}
	return ""
}

// cannotStart reports whether err, from Start or ContinueSaved, says the session's agent or folder
// is not there to start (ExitNoStart) rather than that the session cannot be had (ExitFailed).
func cannotStart(err error) bool {
	var (
		unknown *agents.UnknownError
		folder  *hub.FolderError
	)
	return errors.As(err, &unknown) || errors.As(err, &folder) || errors.Is(err, hub.ErrNoCommandLine) ||
		errors.Is(err, exec.ErrNotFound)
}

// startWait bounds how long sayWhatToDo waits for a failed start to return its error (its
// "failed" event can come first).
const startWait = 5 * time.Second

// sayWhatToDo prints (as command who) the hint for a session whose start or last turn failed, when there is one:
// driveTurn has printed what failed, from the events. It reports whether the agent needs a login.
func sayWhatToDo(ctx context.Context, who string, h *hub.Hub, sess *acp.Session, agent agents.Agent, stderr io.Writer) (login bool) {
	ctx, cancel := context.WithTimeout(ctx, startWait)
	defer cancel()
	err := h.StartError(ctx, sess.ID())
	if err == nil {
		if login := sess.LoginNeeded(); login != nil {
			err = login
		}
	}
	if err == nil {
		return false
	}
	if h := hint(err, agent); h != "" {
		fmt.Fprintf(stderr, "agentdesk %s: %s\n", who, h)
	}
	var auth *acp.AuthRequiredError
	var term *acp.TerminalLoginError
	return errors.As(err, &auth) || errors.As(err, &term)
}

// confirmed reads one line of in, the answer to a [y/N] question: true only for y or yes (any
// case); anything else, or no line at all, is no.
func confirmed(in io.Reader) bool {
	answer, _ := bufio.NewReader(in).ReadString('\n')
	a := strings.ToLower(strings.TrimSpace(answer))
	return a == "y" || a == "yes"
}
