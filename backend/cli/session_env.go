package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/agents"
	"agentdesk/backend/hub"
	"agentdesk/backend/store"
)

// sessionEnv is what run and chat share around one live session: the history (when it could be
// opened), the catalog whose secrets every printed line has masked, the hub, the printer, and
// the session itself with the events the command waits on.
type sessionEnv struct {
	who            string // the command's name, in its messages: "agentdesk run: …"
	st             *store.Store
	health         *hub.HistoryHealth
	cat            *agents.Catalog
	h              *hub.Hub
	sess           *acp.Session
	info           hub.SessionInfo
	agent          agents.Agent
	out            *printer
	stdout, stderr io.Writer // the command's own messages: filtered (safeText), then masked
	masked         []*agents.MaskWriter
	// events carries the events a command acts on: permissions, open elicitations, states,
	// turn ends. The emitter blocks on it until done is closed: read it, or close done.
	events  chan acp.Event
	done    chan struct{}
	saved   bool     // the session is in the history, whole (else the exit code says it is not)
	cleanup []func() // run by finish, last first
}

// openSession opens the history, the catalog and a hub, then starts f's agent, or continues
// saved session f.cont, printing its events on stdio.Out (f.output). watch, when not nil, sees
// every event first (chat learns the agent's slash commands from it). On failure it has said
// why on stderr, cleaned up, and returns nil with the exit code.
func openSession(ctx context.Context, who string, f runFlags, stdio Stdio, watch func(acp.Event)) (*sessionEnv, int) {
	e := &sessionEnv{who: who, saved: true, events: make(chan acp.Event, 64), done: make(chan struct{})}
	stdout, stderr := stdio.Out, stdio.Err
	e.health = hub.NewHistoryHealth(describeHistoryError)
	e.cleanup = append(e.cleanup, e.health.Close)
	st, err := hub.OpenStore(ctx, f.db, store.WithErrorHandler(e.health.Report))
	if err != nil {
		// The session still runs; it is just not saved.
		fmt.Fprintf(stderr, "agentdesk %s: the session will not be saved: %v\n", who, err)
		e.saved = false
	} else {
		e.st = st
		e.cleanup = append(e.cleanup, func() { st.Close() })
	}
	fail := func(code int) (*sessionEnv, int) {
		close(e.done)
		e.runCleanup()
		return nil, code
	}
	// A terminal's environment is already the login shell's: no capture here.
	list, agentID := hub.BuiltinAgents(nil), f.agentID
	if f.agentCmd != "" {
		custom, err := agents.FromCommandLine(f.agentCmd)
		if err != nil {
			fmt.Fprintf(stderr, "agentdesk %s: %v\n", who, err)
			return fail(ExitUsage)
		}
		list, agentID = append(list, custom), custom.ID
	}
	// Custom agents too. Everything printed from here on has their secret values masked.
	cat, catErr := agents.OpenCatalog(list, nil)
	if catErr != nil {
		fmt.Fprintf(stderr, "agentdesk %s: %v\n", who, catErr)
	}
	e.cat = cat
	// The printer filters the agent's text itself and writes chat's colours around it, so it
	// writes on the streams under the screens; the command's own messages stay filtered.
	maskedOut, maskedErr := cat.Masker().Writer(rawStream(stdout)), cat.Masker().Writer(rawStream(stderr))
	e.cleanup = append(e.cleanup, func() { maskedErr.Flush() }, func() { maskedOut.Flush() })
	e.stdout, e.stderr, e.masked = safeWriter{maskedOut}, safeWriter{maskedErr}, []*agents.MaskWriter{maskedOut, maskedErr}
	stdout, stderr = e.stdout, e.stderr
	if e.st != nil {
		if _, err := hub.MaskOldHistory(ctx, e.st, cat.Masker(), cat.LearnSecrets); err != nil {
			fmt.Fprintf(stderr, "agentdesk %s: %v\n", who, err)
		}
	}
	e.h = hub.New(e.st, cat, func(string, ...any) {})
	e.h.SetOwnerName("agentdesk " + who) // how another agentdesk names this one when it refuses a session
	e.h.SetElicit(elicitModes(f.policy))
	if e.st != nil {
		if l, err := hub.OpenLedger(e.st); err != nil {
			fmt.Fprintf(stderr, "agentdesk %s: turns' changes will not be recorded: %v\n", who, err)
		} else {
			e.h.SetLedger(l)
		}
	}
	e.out = newPrinter(maskedOut)
	if f.output == "json" {
		e.out = newJSONPrinter(maskedOut, maskedErr)
	}
	emitter := acp.EmitterFunc(func(ev acp.Event) { // the printer writes through maskedOut
		if watch != nil {
			watch(ev)
		}
		e.out.print(ev)
		if ev.Kind == acp.EventPermission || ev.Kind == acp.EventTurnEnd || ev.Kind == acp.EventState || openElicitation(ev) {
			select {
			case e.events <- ev:
			case <-e.done:
			}
		}
	})
	if f.cont != "" {
		if e.st == nil {
			fmt.Fprintf(stderr, "agentdesk %s: cannot continue a session: the history could not be opened\n", who)
			return fail(ExitFailed)
		}
		id, err := resolveSessionID(ctx, e.st, f.cont)
		if err != nil {
			fmt.Fprintf(stderr, "agentdesk %s: %v\n", who, err)
			return fail(ExitUsage)
		}
		e.sess, e.info, err = e.h.ContinueSaved(ctx, hub.ContinueRequest{SessionID: id, HardStopAfter: f.hardAfter, RawEvents: true, MCP: f.mcp}, emitter)
		if err != nil {
			fmt.Fprintf(stderr, "agentdesk %s: %s\n", who, describe(err, agents.Agent{}))
			return fail(ExitFailed)
		}
	} else {
		var err error
		e.sess, e.info, err = e.h.Start(hub.StartRequest{AgentID: agentID, Cwd: f.cwd, AuthMethod: f.auth, HardStopAfter: f.hardAfter,
			RawEvents: true, MCP: f.mcp}, emitter)
		if err != nil {
			agent, _ := cat.Find(agentID)
			fmt.Fprintf(stderr, "agentdesk %s: %s\n", who, describe(err, agent))
			return fail(ExitNoStart)
		}
	}
	e.agent, _ = cat.Find(e.info.AgentID)
	if e.st != nil {
		e.health.Set(e.st.Writer().Flush, e.h.Resave, func(s hub.HistoryStatus) {
			if s.Saving {
				fmt.Fprintf(stderr, "agentdesk %s: saving the session works again\n", who)
			} else {
				fmt.Fprintf(stderr, "agentdesk %s: %s\n", who, s.Problem)
			}
		})
	}
	return e, ExitOK
}

// loginHint prints what to do when the session's start or last turn failed (see sayWhatToDo)
// and reports whether the agent needs a login.
func (e *sessionEnv) loginHint(ctx context.Context) bool {
	return sayWhatToDo(ctx, e.who, e.h, e.sess, e.agent, e.stderr)
}

// finish closes the session, saving it (a last try when saving had failed), and cleans up; it
// reports whether the session is in the history, whole. The command must no longer read events.
func (e *sessionEnv) finish(ctx context.Context) bool {
	select {
	case <-e.done:
	default:
		close(e.done)
	}
	defer e.runCleanup()
	closeCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if !e.health.Status().Saving {
		// A last try while the session is still in the hub: it saves the whole of it.
		if err := e.health.Retry(closeCtx); err != nil {
			fmt.Fprintf(e.stderr, "agentdesk %s: the session was not saved in full: %s\n", e.who, describeHistoryError(err))
			e.saved = false
		}
	}
	if err := e.h.CloseAll(closeCtx); err != nil && e.health.Status().Saving {
		fmt.Fprintf(e.stderr, "agentdesk %s: saving the session: %v\n", e.who, err)
		e.saved = false
	}
	return e.saved
}

// flush writes what the masked writers hold back (the end of a line that could begin a secret):
// before the person is asked something, all that came before must be on the screen.
func (e *sessionEnv) flush() {
	for _, w := range e.masked {
		_ = w.Flush()
	}
}

func (e *sessionEnv) runCleanup() {
	for i := len(e.cleanup) - 1; i >= 0; i-- {
		e.cleanup[i]()
	}
	e.cleanup = nil
}
