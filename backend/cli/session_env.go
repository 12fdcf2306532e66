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

// sessionEnv is what run and chat share around one live session: the core (the history when it
// could be opened, the catalog whose secrets every printed line has masked, the hub), the
// printer, and the session itself with the events the command waits on.
type sessionEnv struct {
	who            string    // the command's name, in its messages: "agentdesk run: …"
	core           *hub.Core // what openCore opened; the last cleanup closes it
	st             *store.Store
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

// openSession opens the core (openCore: the history when it can be, the catalog, a hub), then
// starts f's agent, or continues saved session f.cont, printing its events on stdio.Out
// (f.output). watch, when not nil, sees every event first (chat learns the agent's slash
// commands from it). On failure it has said why on stderr, cleaned up, and returns nil with the
// exit code.
func openSession(ctx context.Context, who string, f runFlags, stdio Stdio, watch func(acp.Event)) (*sessionEnv, int) {
	e := &sessionEnv{who: who, saved: true, events: make(chan acp.Event, 64), done: make(chan struct{})}
	var extra []agents.Agent
	agentID := f.agentID
	if f.agentCmd != "" {
		custom, err := agents.FromCommandLine(f.agentCmd)
		if err != nil {
			fmt.Fprintf(stdio.Err, "agentdesk %s: %v\n", who, err)
			return nil, ExitUsage
		}
		extra, agentID = []agents.Agent{custom}, custom.ID
	}
	if !e.open(ctx, f, extra, stdio) {
		return nil, ExitFailed
	}
	fail := func(code int) (*sessionEnv, int) {
		close(e.done)
		e.runCleanup()
		return nil, code
	}
	emitter := acp.EmitterFunc(func(ev acp.Event) { // the printer writes through the masked stdout
		if watch != nil {
			watch(ev)
		}
		if ev.ParentID != "" {
			// A subagent's own events: its card in the parent's output says what it does, and
			// its transcript is saved under its own id; only the JSON stream carries them.
			if e.out.json {
				e.out.print(ev)
			}
			return
		}
		e.out.print(ev)
		if ev.Kind == acp.EventPermission || ev.Kind == acp.EventTurnEnd || ev.Kind == acp.EventState || openElicitation(ev) {
			select {
			case e.events <- ev:
			case <-e.done:
			}
		}
	})
	var err error
	if f.cont != "" {
		if e.st == nil {
			fmt.Fprintf(e.stderr, "agentdesk %s: cannot continue a session: the history could not be opened\n", who)
			return fail(ExitFailed)
		}
		id, err := resolveSessionID(ctx, e.st, f.cont)
		if err != nil {
			fmt.Fprintf(e.stderr, "agentdesk %s: %v\n", who, err)
			return fail(ExitUsage)
		}
		e.sess, e.info, err = e.h.ContinueSaved(ctx, hub.ContinueRequest{SessionID: id, HardStopAfter: f.hardAfter, RawEvents: true, MCP: f.mcp}, emitter)
		if err != nil {
			fmt.Fprintf(e.stderr, "agentdesk %s: %s\n", who, describe(err, agents.Agent{}))
			if cannotStart(err) {
				return fail(ExitNoStart)
			}
			return fail(ExitFailed)
		}
	} else if e.sess, e.info, err = e.h.Start(hub.StartRequest{AgentID: agentID, Cwd: f.cwd, AuthMethod: f.auth, HardStopAfter: f.hardAfter,
		RawEvents: true, MCP: f.mcp, Worktree: f.worktree, Carry: f.carry}, emitter); err != nil {
		agent, _ := e.cat.Find(agentID)
		fmt.Fprintf(e.stderr, "agentdesk %s: %s\n", who, describe(err, agent))
		return fail(ExitNoStart)
	}
	if t := e.info.Worktree; t != nil {
		fmt.Fprintf(e.stderr, "agentdesk %s: working in %s, on branch %s from %.12s; your own files stay as they are\n", who, e.info.Cwd, t.Branch, t.Base)
	}
	e.agent, _ = e.cat.Find(e.info.AgentID)
	e.core.WatchHistory(func(s hub.HistoryStatus) {
		if s.Saving {
			fmt.Fprintf(e.stderr, "agentdesk %s: saving the session works again\n", who)
		} else {
			fmt.Fprintf(e.stderr, "agentdesk %s: %s\n", who, s.Problem)
		}
	})
	return e, ExitOK
}

// open opens the core, with extra agents beside the built-in ones, and the command's masked
// streams and printer over it. Everything printed from here on has the agents' secret values
// masked. It reports false, having said why, when the core could not be opened.
func (e *sessionEnv) open(ctx context.Context, f runFlags, extra []agents.Agent, stdio Stdio) bool {
	var log io.Writer
	if f.verbose {
		log = stdio.Err
	}
	c, err := openCore(ctx, e.who, hub.Options{DB: f.db, Agents: extra, Elicit: elicitModes(f.policy)}, log)
	if err != nil { // StoreOptional: only a broken core
		fmt.Fprintf(stdio.Err, "agentdesk %s: %v\n", e.who, err)
		return false
	}
	e.core, e.st, e.cat, e.h = c, c.Store, c.Catalog, c.Hub
	e.cleanup = append(e.cleanup, func() { _ = c.Close(context.Background()) })
	if c.StoreErr != nil {
		// The session still runs; it is just not saved.
		fmt.Fprintf(stdio.Err, "agentdesk %s: the session will not be saved: %v\n", e.who, c.StoreErr)
		e.saved = false
	}
	if c.CatalogErr != nil {
		fmt.Fprintf(stdio.Err, "agentdesk %s: %v\n", e.who, c.CatalogErr)
	}
	// The printer filters the agent's text itself and writes chat's colours around it, so it
	// writes on the streams under the screens; the command's own messages stay filtered.
	maskedOut, maskedErr := e.cat.Masker().Writer(rawStream(stdio.Out)), e.cat.Masker().Writer(rawStream(stdio.Err))
	e.cleanup = append(e.cleanup, func() { maskedErr.Flush() }, func() { maskedOut.Flush() })
	e.stdout, e.stderr, e.masked = safeWriter{maskedOut}, safeWriter{maskedErr}, []*agents.MaskWriter{maskedOut, maskedErr}
	if c.MaskErr != nil {
		fmt.Fprintf(e.stderr, "agentdesk %s: %v\n", e.who, c.MaskErr)
	}
	if c.LedgerErr != nil {
		fmt.Fprintf(e.stderr, "agentdesk %s: turns' changes will not be recorded: %v\n", e.who, c.LedgerErr)
	}
	e.out = newPrinter(maskedOut)
	if f.output == "json" {
		e.out = newJSONPrinter(maskedOut, maskedErr)
	}
	e.out.sharesStderr = sameFile(rawStream(stdio.Out), rawStream(stdio.Err))
	return true
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
	if !e.core.Health.Status().Saving {
		// A last try while the session is still in the hub: it saves the whole of it.
		if err := e.core.Health.Retry(closeCtx); err != nil {
			fmt.Fprintf(e.stderr, "agentdesk %s: the session was not saved in full: %s\n", e.who, describeHistoryError(err))
			e.saved = false
		}
	}
	if err := e.h.CloseAll(closeCtx); err != nil && e.core.Health.Status().Saving {
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
