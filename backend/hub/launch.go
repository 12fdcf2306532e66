package hub

import (
	"context"
	"os"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/agents"
	"agentdesk/backend/store"
	"agentdesk/backend/supervise"
)

// launch is what Start and ContinueSaved have resolved: the session's id, its agent and folder,
// the caller's request, the recorder that saves it (nil: not saved) and, to continue a saved
// session, its seed.
type launch struct {
	id    string
	agent agents.Agent
	dir   string
	dirs  []string // additional folders, checked (checkDirs)
	req   StartRequest
	rec   *recorder
	seed  *acp.Seed
	mcp   []acp.MCPServer    // from Hub.mcpFor
	then  func(*acp.Session) // after a successful start, on its goroutine (a rerun's prompt); nil: nothing
	lease *store.Lease       // the session's claim (Hub.claim); nil: not saved
}

// launch creates the session l describes, registers it and starts its agent in the background
// (acp.Session.Start, or Reopen for a seeded one, under StartTimeout); out receives every event,
// masked unless l.req.RawEvents. It never waits on the agent.
func (h *Hub) launch(l launch, out acp.Emitter) (*acp.Session, SessionInfo) {
	info := SessionInfo{SessionID: l.id, AgentID: l.agent.ID, AgentName: l.agent.Name, AgentVersion: l.agent.Version, Cwd: l.dir}
	// The agent is launched with its catalog environment, which holds its own secrets and no
	// other agent's (the catalog adds them per agent); its terminals get the same, not whatever
	// agentdesk's own environment holds beyond it.
	env := l.agent.Env
	if env == nil {
		env = os.Environ()
	}
	h.mu.Lock()
	elicit, ledger := h.elicit, h.ledger
	h.mu.Unlock()
	cfg := acp.Config{ID: l.id, Elicit: elicit, AgentName: l.agent.Name, AgentVersion: l.agent.Version, Cwd: l.dir, Dirs: l.dirs, Logf: h.logf, AuthMethod: l.req.AuthMethod,
		HardStopAfter: l.req.HardStopAfter, Seed: l.seed, MCPServers: l.mcp,
		ClientInfo: schema.Implementation{Name: "agentdesk", Title: "agentdesk", Version: version}, Env: env,
		Launch: func(context.Context) (acp.Transport, error) {
			return supervise.Start(supervise.Command{Path: l.agent.Command, Args: l.agent.Args, Env: env, Dir: l.dir})
		},
	}
	cfg.SystemPrompt = h.houseRulesFor(l.agent.ID, l.dir)
	cfg.OnAuthStatus = func(st acp.AuthStatus) { h.noteAuthStatus(l.agent.ID, st) }
	sessionRules := h.sessionRulesFor(l.agent, l.dir, l.dirs)
	cfg.Rules = sessionRules
	emitter := out
	if l.rec != nil && ledger != nil {
		cfg.Turns = newTurnLedger(ledger, l.rec.w, l.id, l.dir, l.dirs, h.logf)
	}
	if l.rec != nil {
		l.rec.mask = h.agents.Masker()
		l.rec.base = store.Session{AgentID: l.agent.ID, AgentCmd: l.rec.agentCmd, AgentName: l.agent.Name, Cwd: l.dir, Dirs: l.dirs}
		cfg.Journal = l.rec.Journal
		emitter = recordThen{l.rec, out}
	}
	if m := h.agents.Masker(); m != nil {
		switch mask := newLiveMasker(m); {
		case !l.req.RawEvents:
			emitter = &maskedEmitter{mask: mask, out: emitter}
		case l.rec != nil:
			emitter = &maskedEmitter{mask: mask, out: acp.EmitterFunc(l.rec.Record), raw: out}
		}
	}
	if m := h.agents.Masker(); m != nil {
		cfg.LearnSecret = func(v string) { m.Add(v) } // what the agent echoes of a secret answer is masked too
	}
	cfg.Emitter = emitter
	s := acp.NewSession(cfg)
	ctx, cancel := context.WithTimeout(context.Background(), StartTimeout)
	h.mu.Lock()
	if h.showing && h.shown != l.id {
		s.SetOnScreen(false) // before its first event: see Show
	}
	h.sessions[l.id] = s
	h.started++
	started := &startOutcome{done: make(chan struct{}), over: make(chan struct{}), agentID: l.agent.ID, agentName: l.agent.Name, cwd: l.dir, dirs: l.dirs,
		cancel: cancel, order: h.started, rules: sessionRules}
	h.starts[l.id] = started
	if l.rec != nil {
		h.recorders[l.id] = l.rec
	}
	if l.lease != nil {
		h.leases[l.id] = l.lease
	}
	h.mu.Unlock()
	go func() {
		defer close(started.over)
		defer cancel()
		var err error
		if l.seed != nil {
			_, err = s.Reopen(ctx)
		} else {
			err = s.Start(ctx)
		}
		started.finish(err)
		if err != nil {
			h.logf("session %s: %v", l.id, err)
			return
		}
		if h.store != nil {
			asid := s.AgentSessionID()
			h.store.Writer().UpdateSession(l.id, &asid, nil)
		}
		if l.then != nil {
			l.then(s)
		}
	}()
	return s, info
}
