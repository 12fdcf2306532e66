package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/demoagent"
	"agentdesk/backend/agents"
	"agentdesk/backend/store"
)

// cliCommands are the headless subcommands of the binary; anything else starts the window
// (Wails' own dev flags such as -devserver included).
var cliCommands = map[string]func(args []string, stdin io.Reader, stdout, stderr io.Writer) int{
	"run":        runCommand,
	"history":    historyCommand,
	"show":       showCommand,
	"demo-agent": demoAgentCommand,
	"help":       helpCommand,
	"--help":     helpCommand,
	"-h":         helpCommand,
}

const usage = `agentdesk — a desktop client for ACP coding agents.

Without arguments it opens the window. Headless commands:
  agentdesk run [--agent ID | --agent-cmd 'CMD ARGS'] [--cwd DIR] [--auth METHOD_ID] [--permissions ask|allow|reject] [--cancel-after DURATION] [--hard-stop-after DURATION] [--db PATH] PROMPT
      run one turn and print the transcript as it streams; the stop reason comes last
  agentdesk history [--db PATH] [--search TEXT]
      list saved sessions, newest first
  agentdesk show [--db PATH] [--format md|json] ID
      print a saved session (the id is the first column of history; a unique prefix will do)
  agentdesk demo-agent [--pace DURATION] [--script FILE]
      serve the built-in Demo agent (or a scripted fake agent) over ACP on stdin/stdout

The database defaults to $XDG_DATA_HOME/agentdesk/agentdesk.db; AGENTDESK_DB overrides it.
`

func helpCommand(_ []string, _ io.Reader, stdout, _ io.Writer) int {
	fmt.Fprint(stdout, usage)
	return 0
}

func demoAgentCommand(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("demo-agent", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pace := fs.Duration("pace", demoagent.DefaultPace, "pause between the steps of the scripted turn")
	script := fs.String("script", "", "play this acptest script (a JSON array of steps) instead of the demo")
	if fs.Parse(args) != nil {
		return 2
	}
	if *script == "" {
		*script = e2eAgentScript() // dev-tag builds only: "" in production
	}
	if *script != "" {
		return playScript(*script, stdin, stdout, stderr)
	}
	if err := demoagent.Serve(stdin, stdout, *pace); err != nil {
		fmt.Fprintf(stderr, "demo-agent: %v\n", err)
		return 1
	}
	return 0
}

// playScript serves a scripted fake agent (backend/acp/acptest) for tests and bug reports.
func playScript(path string, stdin io.Reader, stdout, stderr io.Writer) int {
	s, err := acptest.LoadScript(path)
	if err != nil {
		fmt.Fprintf(stderr, "demo-agent: %v\n", err)
		return 2
	}
	err = s.Run(stdin, stdout)
	var exit *acptest.ExitError
	if errors.As(err, &exit) {
		fmt.Fprintln(stderr, exit.Stderr)
		return exit.Code
	}
	if err != nil {
		fmt.Fprintf(stderr, "demo-agent: %v\n", err)
		return 1
	}
	return 0
}

// openStore opens the database at path, or the default one.
func openStore(ctx context.Context, path string, opts ...store.Option) (*store.Store, error) {
	if path == "" {
		var err error
		if path, err = store.DefaultPath(); err != nil {
			return nil, err
		}
	}
	return store.Open(ctx, path, opts...)
}

// openStoreForReading opens the database for the commands that only read it: as openStore,
// else read-only when it cannot be written (a read-only copy can still be listed and shown).
func openStoreForReading(ctx context.Context, path string) (*store.Store, error) {
	st, err := openStore(ctx, path)
	if err == nil {
		return st, nil
	}
	if path == "" {
		path, _ = store.DefaultPath()
	}
	if ro, roErr := store.OpenReadOnly(ctx, path); roErr == nil {
		return ro, nil
	}
	return nil, err
}

func historyCommand(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("history", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "", "database file")
	search := fs.String("search", "", "full-text search")
	if fs.Parse(args) != nil {
		return 2
	}
	ctx := context.Background()
	mask, learned := knownSecrets()
	masked := mask.Writer(stdout) // anything else printed may quote a secret too
	defer masked.Flush()
	stdout = masked
	st, err := openStoreForReading(ctx, *db)
	if err != nil {
		fmt.Fprintf(stderr, "agentdesk history: %v\n", err)
		return 1
	}
	defer st.Close()
	if _, err := maskOldHistory(ctx, st, mask, func() error { return learned }); err != nil {
		fmt.Fprintf(stderr, "agentdesk history: %v\n", err)
	}
	rows, err := st.ListSessions(ctx, *search, 1000)
	if err != nil {
		fmt.Fprintf(stderr, "agentdesk history: %v\n", err)
		return 1
	}
	if len(rows) == 0 {
		fmt.Fprintln(stdout, "no saved sessions")
		return 0
	}
	for _, r := range rows {
		fmt.Fprintf(stdout, "%s  %s  %-12s %-24s %d turn(s)  %s  %s\n", r.ID, r.UpdatedAt.Local().Format("2006-01-02 15:04"),
			r.Outcome, r.AgentName, r.Turns, r.Cwd, mask.Mask(r.Title))
		if r.Snippet != "" {
			// The match markers may cut a value in pieces that the writer would not recognise.
			fmt.Fprintf(stdout, "    %s\n", maskSnippet(mask, r.Snippet))
		}
	}
	return 0
}

func showCommand(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("show", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "", "database file")
	format := fs.String("format", formatMarkdown, "md or json")
	if fs.Parse(args) != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "agentdesk show: give one session id (see agentdesk history)")
		return 2
	}
	ctx := context.Background()
	mask, learned := knownSecrets()
	st, err := openStoreForReading(ctx, *db)
	if err != nil {
		fmt.Fprintf(stderr, "agentdesk show: %v\n", err)
		return 1
	}
	defer st.Close()
	if _, err := maskOldHistory(ctx, st, mask, func() error { return learned }); err != nil {
		fmt.Fprintf(stderr, "agentdesk show: %v\n", err)
	}
	id, err := resolveSessionID(ctx, st, fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "agentdesk show: %v\n", err)
		return 1
	}
	s, turns, entries, err := st.Session(ctx, id)
	if err == nil {
		var out string
		if out, err = exportSession(mask, s, turns, entries, *format); err == nil {
			fmt.Fprint(stdout, out)
			return 0
		}
	}
	fmt.Fprintf(stderr, "agentdesk show: %v\n", err)
	return 1
}

// knownSecrets is a masker that knows every secret value stored for the agents, for commands
// that print saved sessions, and why it may know fewer (catalog.LearnSecrets).
func knownSecrets() (*agents.Masker, error) {
	cat, _ := openCatalog(nil, nil)
	err := cat.LearnSecrets()
	return cat.Masker(), err
}

// resolveSessionID accepts a whole id or a prefix that matches exactly one saved session.
func resolveSessionID(ctx context.Context, st *store.Store, prefix string) (string, error) {
	rows, err := st.ListSessions(ctx, "", 0)
	if err != nil {
		return "", err
	}
	var found []string
	for _, r := range rows {
		if r.ID == prefix {
			return r.ID, nil
		}
		if strings.HasPrefix(r.ID, prefix) {
			found = append(found, r.ID)
		}
	}
	switch len(found) {
	case 0:
		return "", fmt.Errorf("no saved session %q (see agentdesk history)", prefix)
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("%q matches %d sessions: give more of the id", prefix, len(found))
}

func runCommand(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	agentID := fs.String("agent", agents.DemoID, "agent id (see the app's agent list)")
	agentCmd := fs.String("agent-cmd", "", "start this command line as the agent instead (no shell runs it)")
	cwd := fs.String("cwd", ".", "project folder of the session")
	policy := fs.String("permissions", "ask", "answer permission requests: ask (on this terminal), allow (allow once) or reject (reject once)")
	cancelAfter := fs.Duration("cancel-after", 0, "press Stop after this long (0: never)")
	hardAfter := fs.Duration("hard-stop-after", 30*time.Second, "after Stop, kill an agent that has not ended the turn within this long")
	db := fs.String("db", "", "database file")
	auth := fs.String("auth", "", "log in with this auth method of the agent first (see the error that lists them)")
	if fs.Parse(args) != nil {
		return 2
	}
	prompt := strings.TrimSpace(strings.Join(fs.Args(), " "))
	if prompt == "" {
		fmt.Fprintln(stderr, "agentdesk run: give a prompt, e.g. agentdesk run --agent demo \"hello\"")
		return 2
	}
	if *policy != "ask" && *policy != "allow" && *policy != "reject" {
		fmt.Fprintf(stderr, "agentdesk run: --permissions must be ask, allow or reject, not %q\n", *policy)
		return 2
	}
	if *hardAfter <= 0 {
		fmt.Fprintln(stderr, "agentdesk run: --hard-stop-after must be longer than 0, e.g. 30s")
		return 2
	}
	ctx := context.Background()
	health := newHistoryHealth()
	health.describe = describeCLIHistoryError
	defer health.close()
	saved := true // the session is in the history, whole: else the exit code says it is not
	st, err := openStore(ctx, *db, store.WithErrorHandler(health.report))
	if err != nil {
		// The turn still runs; it is just not saved.
		fmt.Fprintf(stderr, "agentdesk run: the session will not be saved: %v\n", err)
		st, saved = nil, false
	} else {
		defer st.Close()
	}
	// A terminal's environment is already the login shell's: no capture here.
	list := agents.List(agents.Self(), demoArgs(), nil)
	if *agentCmd != "" {
		custom, err := agents.FromCommandLine(*agentCmd)
		if err != nil {
			fmt.Fprintf(stderr, "agentdesk run: %v\n", err)
			return 2
		}
		list, *agentID = append(list, custom), custom.ID
	}
	// Custom agents too. Everything printed from here on has their secret values masked.
	cat, catErr := openCatalog(list, nil)
	if catErr != nil {
		fmt.Fprintf(stderr, "agentdesk run: %v\n", catErr)
	}
	maskedOut, maskedErr := cat.Masker().Writer(stdout), cat.Masker().Writer(stderr)
	defer maskedErr.Flush()
	defer maskedOut.Flush()
	stdout, stderr = maskedOut, maskedErr
	if st != nil {
		if _, err := maskOldHistory(ctx, st, cat.Masker(), cat.LearnSecrets); err != nil {
			fmt.Fprintf(stderr, "agentdesk run: %v\n", err)
		}
	}
	hub := NewHub(st, cat, func(string, ...any) {})
	out := newPrinter(stdout)
	events := make(chan acp.Event, 64)
	done := make(chan struct{}) // closed once nobody reads events any more
	sess, _, err := hub.Start(StartRequest{AgentID: *agentID, Cwd: *cwd, AuthMethod: *auth, HardStopAfter: *hardAfter,
		RawEvents: true}, acp.EmitterFunc(func(ev acp.Event) { // the printer writes through maskedOut
		out.print(ev)
		if ev.Kind == acp.EventPermission || ev.Kind == acp.EventTurnEnd || ev.Kind == acp.EventState {
			select {
			case events <- ev:
			case <-done:
			}
		}
	}))
	if err != nil {
		fmt.Fprintf(stderr, "agentdesk run: %v\n", err)
		return 1
	}
	if st != nil {
		health.set(st.Writer().Flush, hub.Resave, func(s HistoryStatus) {
			if s.Saving {
				fmt.Fprintln(stderr, "agentdesk run: saving the session works again")
			} else {
				fmt.Fprintf(stderr, "agentdesk run: %s\n", s.Problem)
			}
		})
	}
	code := func() int {
		defer close(done)
		return driveTurn(sess, prompt, *policy, *cancelAfter, events, bufio.NewReader(stdin), out, stderr)
	}()
	closeCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if !health.Status().Saving {
		// A last try while the session is still in the hub: it saves the whole of it.
		if err := health.Retry(closeCtx); err != nil {
			fmt.Fprintf(stderr, "agentdesk run: the session was not saved in full: %s\n", describeCLIHistoryError(err))
			saved = false
		}
	}
	if err := hub.CloseAll(closeCtx); err != nil && health.Status().Saving {
		fmt.Fprintf(stderr, "agentdesk run: saving the session: %v\n", err)
		saved = false
	}
	if code == 0 && !saved {
		return exitNotSaved
	}
	return code
}

// exitNotSaved is run's exit code when the turn ended well but the session is not (wholly) in
// the history.
const exitNotSaved = 3

// describeCLIHistoryError is the command line's message for a failed write of the history.
func describeCLIHistoryError(err error) string {
	what := "saving the session failed"
	switch advice := store.Advice(err); {
	case store.Damaged(err):
		what += ": the history file is damaged: move it away, or give another file with --db"
	case advice != "":
		what += ": " + advice
	default:
		what += fmt.Sprintf(" (%v)", err)
	}
	return what + "; the turn goes on, and agentdesk tries again every 15 s"
}

// driveTurn waits for the session to start, sends the prompt, answers permissions by policy,
// presses Stop on Ctrl-C or after cancelAfter (0: never), stops hard on a second Ctrl-C, and
// returns the exit code: 0 for end_turn and cancelled, 1 otherwise. An agent that ignores the
// Stop is stopped hard by the session itself (StartRequest.HardStopAfter); the turn then ends
// interrupted, saying so.
func driveTurn(sess *acp.Session, prompt, policy string, cancelAfter time.Duration, events <-chan acp.Event,
	in *bufio.Reader, stdout *printer, stderr io.Writer) int {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	var timeout <-chan time.Time
	sent, stopped, noAnswer := false, false, false
	unanswerable := make(chan struct{}, 1) // a permission could not be asked: stdin is at its end
	stop := func() {
		stopped = true
		_ = sess.Stop()
	}
	for {
		select {
		case ev := <-events:
			switch ev.Kind {
			case acp.EventState:
				if ev.State == acp.StateIdle && !sent {
					sent = true
					if _, err := sess.Prompt(prompt); err != nil {
						fmt.Fprintf(stderr, "agentdesk run: %v\n", err)
						return 1
					}
					if cancelAfter > 0 {
						timeout = time.After(cancelAfter)
					}
				}
				if ev.State == acp.StateFailed || (ev.State == acp.StateExited && !sent) {
					fmt.Fprintf(stderr, "agentdesk run: %s\n", ev.Message)
					return 1
				}
			case acp.EventPermission:
				go answerPermission(sess, ev, policy, in, stdout, unanswerable)
			case acp.EventTurnEnd:
				if noAnswer {
					return 1 // stopped because nobody could be asked
				}
				// The printer wrote the stop reason, in order with the events before it.
				if ev.StopReason == acp.StopEndTurn || ev.StopReason == acp.StopCancelled {
					return 0
				}
				if ev.Message != "" {
					fmt.Fprintf(stderr, "agentdesk run: %s\n", ev.Message)
				}
				return 1
			}
		case <-unanswerable:
			if !noAnswer {
				noAnswer = true
				fmt.Fprintln(stderr, "agentdesk run: a permission needs an answer, but there is no terminal to ask on "+
					"(stdin is closed): stopping the turn; give --permissions allow or reject to decide without asking")
				stop()
			}
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

// answerPermission answers one request by policy, or asks on the terminal and waits (no
// timeout: a person is deciding; Stop still cancels the request). When stdin ends before an
// answer, it tells unanswerable (without blocking) and leaves the request to Stop.
func answerPermission(sess *acp.Session, ev acp.Event, policy string, in *bufio.Reader, stdout *printer, unanswerable chan<- struct{}) {
	choice := acp.PolicyOption(policy, ev.Options)
	if policy == "ask" {
		for choice == "" {
			question := fmt.Sprintf("Allow %q? ", ev.Title)
			for i, o := range ev.Options {
				question += fmt.Sprintf("[%d] %s  ", i+1, o.Name)
			}
			stdout.printf("%s", question)
			line, err := in.ReadString('\n')
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
	by := acp.DecidedByRule
	if policy == "ask" {
		by = acp.DecidedByUser
	}
	if err := sess.Decide(ev.RequestID, choice, by); err != nil {
		stdout.printf("\n[permission] %v\n", err)
	}
}
