package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
)

// chatLoop is one chat: it waits for the agent, then reads a message, runs it as a turn, and
// reads the next, until the person leaves or the agent goes away.
type chatLoop struct {
	ctx   context.Context
	env   *sessionEnv
	f     runFlags
	in    chatInput
	asker *elicitAsker
	paint style
	// sigs gets SIGINT (Ctrl-C between lines on a terminal, any Ctrl-C otherwise) and SIGTERM;
	// interrupts gets the Ctrl-C pressed at a question (the line editor reads it as a key).
	sigs         chan os.Signal
	interrupts   chan struct{}
	unanswerable chan struct{} // a question met the end of the input
	commands     atomic.Pointer[[]schema.SlashCommand]
	pending      chan promptResult // a prompt read still under way (plain input after a Ctrl-C)
	turns        int               // turns sent
	last         int               // the last turn's exit code, as run's
	stoppedByKey bool              // the last turn was stopped by Ctrl-C
	inputEnded   bool              // the input ended during a turn: leave after it
}

type promptResult struct {
	line string
	err  error
}

// errQuit: the person asked to leave (SIGTERM).
var errQuit = errors.New("quit")

// chat talks with f's agent until the person leaves and returns chat's exit code.
func chat(ctx context.Context, f runFlags, stdio Stdio) int {
	c := &chatLoop{ctx: ctx, f: f, sigs: make(chan os.Signal, 2), interrupts: make(chan struct{}, 1), unanswerable: make(chan struct{}, 1)}
	signal.Notify(c.sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(c.sigs)
	watch := func(ev acp.Event) {
		if ev.Kind == acp.EventInfo && ev.Controls != nil {
			cmds := ev.Controls.Commands
			c.commands.Store(&cmds)
		}
	}
	env, code := openSession(ctx, "chat", f, stdio, watch)
	if env == nil {
		return code
	}
	c.env = env
	tty := onTerminal(stdio)
	out, _ := rawStream(stdio.Out).(*os.File)
	c.paint = style{on: out != nil && isTerminal(out) && os.Getenv("NO_COLOR") == ""}
	env.out.mu.Lock()
	env.out.hideUser = tty // the line editor has shown what was typed
	env.out.mu.Unlock()
	if tty {
		c.in = newLineEditor(c.commandNames, env.cat.Masker().Mask, env.flush, c.interrupts)
	} else {
		in, _ := stdio.In.(*os.File)
		c.in = &plainLines{in: bufio.NewReader(stdio.In), out: env.out, flush: env.flush, showPrompt: in != nil && isTerminal(in)}
	}
	c.asker = &elicitAsker{sess: env.sess, ask: f.policy == "ask", in: c.in, stdout: env.out}
	c.recap(tty)
	code = c.run()
	c.in.close()
	if code == ExitFailed || code == ExitNoStart {
		if env.loginHint(ctx) {
			code = ExitLogin
		}
	}
	id := env.sess.ID()
	saved := env.finish(ctx)
	switch {
	case c.turns == 0 && f.cont == "":
	case saved:
		fmt.Fprintln(rawStream(stdio.Out), c.paint.dim( // chat's own words and style: an id, no agent's text
			fmt.Sprintf("Session %s saved; continue it with: agentdesk chat --continue %s", id, id)))
	default:
		fmt.Fprintf(stdio.Out, "Session %s was not saved in full.\n", id)
	}
	if code == ExitOK && !saved {
		return ExitNotSaved
	}
	return code
}

// run is the chat: the agent's start, then prompt and turn until one ends it; the exit code.
func (c *chatLoop) run() int {
	if ok, code := c.waitStarted(); !ok {
		return code
	}
	interrupted := false // the last key was Ctrl-C: another one leaves
	for {
		line, err := c.readPrompt()
		switch {
		case errors.Is(err, errInterrupted):
			if interrupted {
				return c.last
			}
			interrupted = true
			c.say("(Ctrl-C again, Ctrl-D or /quit leaves)")
			continue
		case errors.Is(err, errAgentGone):
			return ExitFailed
		case err != nil: // the end of the input, Ctrl-D, SIGTERM
			if _, editor := c.in.(*lineEditor); editor {
				c.env.out.printf("\n") // the line editor leaves the cursor after the prompt
			}
			return c.last
		}
		interrupted = false
		text := strings.TrimSpace(line)
		switch text {
		case "":
			continue
		case "/quit", "/exit":
			return c.last
		case "/help":
			c.help()
			continue
		}
		quit, code := c.turn(text)
		c.last = code
		if quit || c.inputEnded {
			return code
		}
		interrupted = c.stoppedByKey
	}
}

// errAgentGone: the agent exited between turns.
var errAgentGone = errors.New("the agent has exited")

// waitStarted waits until the agent is ready for a prompt, saying that it is starting (and
// every startProgressEvery that it still is). A Ctrl-C meanwhile leaves.
func (c *chatLoop) waitStarted() (bool, int) {
	progress := time.NewTicker(startProgressEvery)
	defer progress.Stop()
	began := time.Now()
	for {
		select {
		case ev := <-c.env.events:
			if ev.Kind != acp.EventState {
				continue
			}
			switch ev.State {
			case acp.StateStarting:
				fmt.Fprintf(c.env.stderr, "agentdesk chat: starting %s…\n", c.env.info.AgentName)
			case acp.StateIdle:
				return true, ExitOK
			case acp.StateFailed, acp.StateExited:
				c.env.out.fail(c.env.stderr, "chat", ev.Message)
				return false, ExitNoStart
			}
		case <-progress.C:
			fmt.Fprintf(c.env.stderr, "agentdesk chat: still starting %s (%s; npx may be downloading it)…\n",
				c.env.info.AgentName, time.Since(began).Round(time.Second))
		case <-c.sigs:
			return false, ExitOK
		}
	}
}

// readPrompt reads the next message, watching meanwhile for Ctrl-C, SIGTERM and the agent
// going away. A read that a signal left under way is picked up by the next call.
func (c *chatLoop) readPrompt() (string, error) {
	if c.pending == nil {
		c.pending = make(chan promptResult, 1)
		go func(res chan<- promptResult) {
			line, err := c.in.prompt()
			res <- promptResult{line, err}
		}(c.pending)
	}
	for {
		select {
		case r := <-c.pending:
			c.pending = nil
			return r.line, r.err
		case sig := <-c.sigs:
			if sig == syscall.SIGTERM {
				return "", errQuit
			}
			return "", errInterrupted
		case <-c.interrupts: // a Ctrl-C at a question the last turn left open
			return "", errInterrupted
		case ev := <-c.env.events:
			if ev.Kind == acp.EventState && (ev.State == acp.StateExited || ev.State == acp.StateFailed) {
				c.say(fmt.Sprintf("The agent has exited: %s", ev.Message))
				return "", errAgentGone
			}
		}
	}
}

// turn sends text as a prompt and follows the turn to its end: questions asked inline, Ctrl-C
// presses Stop, a second Ctrl-C leaves. It returns whether the chat ends, and the turn's code.
func (c *chatLoop) turn(text string) (quit bool, code int) {
	c.env.out.nextTurn()
	c.stoppedByKey = false
	if _, err := c.env.sess.Prompt(text); err != nil {
		fmt.Fprintf(c.env.stderr, "agentdesk chat: %s\n", describe(err, c.env.agent))
		st := c.env.sess.State()
		return st == acp.StateExited || st == acp.StateFailed, ExitFailed
	}
	c.turns++
	stopping := false
	for {
		select {
		case ev := <-c.env.events:
			switch ev.Kind {
			case acp.EventPermission:
				go answerPermission(c.env.sess, ev, c.f.policy, c.in, c.env.out, c.unanswerable)
			case acp.EventEntry: // an open elicitation (openElicitation)
				go c.asker.answer(*ev.Entry.Elicitation)
			case acp.EventTurnEnd:
				return false, c.turnEnded(ev)
			}
		case <-c.unanswerable:
			if !c.inputEnded {
				c.inputEnded = true
				fmt.Fprintln(c.env.stderr, "agentdesk chat: a permission needs an answer, but the input has ended: stopping the turn; "+
					"give --permissions allow or reject to decide without asking")
				_ = c.env.sess.Stop()
			}
		case sig := <-c.sigs:
			if sig == syscall.SIGTERM || stopping {
				c.say("Leaving: the turn is stopped and the session closed.")
				return true, ExitOK
			}
			stopping = c.stop()
		case <-c.interrupts:
			if stopping {
				c.say("Leaving: the turn is stopped and the session closed.")
				return true, ExitOK
			}
			stopping = c.stop()
		}
	}
}

// stop presses Stop for a Ctrl-C.
func (c *chatLoop) stop() bool {
	c.stoppedByKey = true
	c.say("Stopping the turn (Ctrl-C again leaves)…")
	if err := c.env.sess.Stop(); err != nil {
		fmt.Fprintf(c.env.stderr, "agentdesk chat: %v\n", err)
	}
	return true
}

// turnEnded says how a turn ended (the printer has printed its stop reason) and returns its
// code, as run's.
func (c *chatLoop) turnEnded(ev acp.Event) int {
	switch ev.StopReason {
	case schema.StopEndTurn:
		return ExitOK
	case schema.StopCancelled:
		if c.stoppedByKey {
			c.say("Stopped. Type the next message, or Ctrl-C again to leave.")
		}
		return ExitOK
	}
	if ev.Message != "" {
		c.env.out.fail(c.env.stderr, "chat", ev.Message)
	}
	if ev.StopReason == schema.StopRefusal {
		return ExitRefused
	}
	return ExitFailed
}
