package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/agents"
)

// driveTurn waits for the session to start (saying on stderr that agentName is starting, and every
// startProgressEvery that it still is), sends the prompt, answers permissions by policy and
// the agent's questions on the terminal (elicit.go),
// presses Stop on Ctrl-C or after cancelAfter (0: never), stops hard on a second Ctrl-C, and
// returns the exit code (ExitOK, ExitRefused, ExitNoStart, ExitFailed). An agent that ignores the
// Stop is stopped hard by the session itself (StartRequest.HardStopAfter); the turn then ends
// interrupted, saying so.
func driveTurn(sess *acp.Session, agentName, prompt, policy string, cancelAfter time.Duration, events <-chan acp.Event,
	in *bufio.Reader, stdout *printer, stderr io.Writer) int {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	var timeout <-chan time.Time
	// An agent fetched by npx can take a minute to start: say so, and keep saying it is alive.
	progress := time.NewTicker(startProgressEvery)
	defer progress.Stop()
	began := time.Now()
	sent, stopped, noAnswer := false, false, false
	unanswerable := make(chan struct{}, 1) // a permission could not be asked: stdin is at its end
	lines := bufferedLines{in: in, out: stdout}
	asker := &elicitAsker{sess: sess, ask: policy == "ask", in: lines, stdout: stdout}
	stop := func() {
		stopped = true
		_ = sess.Stop()
	}
	for {
		select {
		case ev := <-events:
			switch ev.Kind {
			case acp.EventState:
				if ev.State == acp.StateStarting && !sent {
					fmt.Fprintf(stderr, "agentdesk run: starting %s…\n", agentName)
				}
				if ev.State == acp.StateIdle && !sent {
					progress.Stop()
					sent = true
					if _, err := sess.Prompt(prompt); err != nil {
						fmt.Fprintf(stderr, "agentdesk run: %s\n", describe(err, agents.Agent{}))
						return ExitFailed
					}
					if cancelAfter > 0 {
						timeout = time.After(cancelAfter)
					}
				}
				if ev.State == acp.StateFailed || (ev.State == acp.StateExited && !sent) {
					stdout.fail(stderr, "run", ev.Message)
					return ExitNoStart
				}
			case acp.EventPermission:
				go answerPermission(sess, ev, policy, lines, stdout, unanswerable)
			case acp.EventEntry: // an open elicitation (openElicitation)
				go asker.answer(*ev.Entry.Elicitation)
			case acp.EventTurnEnd:
				if noAnswer {
					return ExitFailed // stopped because nobody could be asked
				}
				// The printer wrote the stop reason, in order with the events before it.
				if ev.StopReason == schema.StopEndTurn || ev.StopReason == schema.StopCancelled {
					return ExitOK
				}
				if ev.Message != "" {
					stdout.fail(stderr, "run", ev.Message)
				}
				if ev.StopReason == schema.StopRefusal {
					return ExitRefused
				}
				return ExitFailed
			}
		case <-unanswerable:
			if !noAnswer {
				noAnswer = true
				fmt.Fprintln(stderr, "agentdesk run: a permission needs an answer, but there is no terminal to ask on "+
					"(stdin is closed): stopping the turn; give --permissions allow or reject to decide without asking")
				stop()
			}
		case <-progress.C:
			if sent {
				progress.Stop()
				continue
			}
			fmt.Fprintf(stderr, "agentdesk run: still starting %s (%s; npx may be downloading it)…\n",
				agentName, time.Since(began).Round(time.Second))
		case <-timeout:
			timeout = nil
			stop()
		case <-sigs:
			if stopped {
				fmt.Fprintln(stderr, "\nagentdesk run: stopping the agent hard")
				_ = sess.HardStop()
				continue
			}
			fmt.Fprintln(stderr, "\nagentdesk run: stopping (press Ctrl-C again to kill the agent)")
			stop()
		}
	}
}

// startProgressEvery is how often run says an agent is still starting.
const startProgressEvery = 10 * time.Second

// openElicitation reports whether ev announces an elicitation waiting for an answer.
func openElicitation(ev acp.Event) bool {
	return ev.Kind == acp.EventEntry && ev.Entry.Kind == acp.KindElicitation && ev.Entry.Elicitation.State == acp.ElicitOpen
}

// lineReader reads the person's answers to questions, a line each: run reads its stdin, chat
// its line editor (the one reader of its terminal).
type lineReader interface {
	// readLine shows prompt, the question the answer is typed after, and returns the line typed
	// (its newline may be left on). At the end of the input it returns what was read with the
	// error; errInterrupted when the person pressed Ctrl-C instead of answering.
	readLine(prompt string) (string, error)
}

// errInterrupted: Ctrl-C was pressed at a question; the command stops the turn, which cancels
// the question, so nobody answers it.
var errInterrupted = errors.New("interrupted")

// bufferedLines reads answers from in, printing each question through out, between events.
type bufferedLines struct {
	in  *bufio.Reader
	out *printer
}

func (b bufferedLines) readLine(prompt string) (string, error) {
	b.out.printf("%s", prompt)
	return b.in.ReadString('\n')
}

// answerPermission answers one request by policy, or asks on the terminal and waits (no
// timeout: a person is deciding; Stop still cancels the request). When stdin ends before an
// answer, it tells unanswerable (without blocking) and leaves the request to Stop; after a
// Ctrl-C it leaves the request to the Stop that the Ctrl-C presses.
func answerPermission(sess *acp.Session, ev acp.Event, policy string, in lineReader, stdout *printer, unanswerable chan<- struct{}) {
	choice := acp.PolicyOption(policy, ev.Options)
	if policy == "ask" {
		for choice == "" {
			question := fmt.Sprintf("Allow %q? ", ev.Title)
			for i, o := range ev.Options {
				question += fmt.Sprintf("[%d] %s  ", i+1, o.Name)
			}
			line, err := in.readLine(question)
			if errors.Is(err, errInterrupted) {
				return
			}
			var n int
			if _, scanErr := fmt.Sscanf(strings.TrimSpace(line), "%d", &n); scanErr == nil && n >= 1 && n <= len(ev.Options) {
				choice = ev.Options[n-1].ID
			} else if err != nil {
				select { // no terminal to ask: driveTurn stops the turn, which cancels the request
				case unanswerable <- struct{}{}:
				default:
				}
				return
			}
		}
	}
	if choice == "" {
		stdout.printf("\n[permission] the agent offered no %s-once option: stopping the turn\n", policy)
		_ = sess.Stop()
		return
	}
	by := acp.DecidedByCLI
	if policy == "ask" {
		by = acp.DecidedByUser
	}
	if err := sess.Decide(ev.RequestID, choice, by); err != nil {
		stdout.printf("\n[permission] %v\n", err)
	}
}
