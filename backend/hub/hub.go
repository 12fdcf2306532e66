package hub

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"agentdesk/backend/acp"
	"agentdesk/backend/agents"
	"agentdesk/backend/changes"
	"agentdesk/backend/store"
	"agentdesk/backend/worktree"
)

// StartTimeout bounds launching an agent, initialize and session/new (npx may download first);
// the window bounds a Continue by it too. Prompts and permissions have no timeout.
const StartTimeout = 2 * time.Minute

// version is agentdesk's version, sent as clientInfo.
const version = "0.1.0"

// Hub owns the live sessions and wires each one to the store. The desktop App and the headless
// CLI both drive sessions through it, so they share one engine and one database. Safe for
// concurrent use; no method waits on an agent except CloseAll.
type Hub struct {
	store  *store.Store // nil: sessions are not saved
	agents AgentSource
	now    func() time.Time
	logf   func(string, ...any)

	mu        sync.Mutex
	sessions  map[string]*acp.Session
	recorders map[string]*recorder
	leases    map[string]*store.Lease   // each live session's claim in the store (owner.go)
	ownerName string                    // how this process is named in another's refusal (SetOwnerName)
	starts    map[string]*startOutcome  // how each session's start ended (auth.go)
	started   uint64                    // sessions started so far: orders List
	elicit    acp.ElicitModes           // the elicitation modes new sessions serve (SetElicit)
	ledger    *changes.Ledger           // where saved sessions record their turns' changes (SetLedger)
	reverting revertLocks               // one revert at a time per session and per folder (revertlock.go)
	rules     *ruleBook                 // the person's permission rules (rules.go)
	auth      map[string]acp.AuthStatus // each agent's sign-in state, as it last said (authstatus.go)
	worktrees *worktree.Manager         // where sessions in a worktree get theirs (SetWorktrees)
	comparing comparing                 // the comparisons started here (compare.go)
	showing   bool                      // a window has said which session it shows (Show)
	shown     string                    // that session's id, "" for none
}

// SetElicit sets the elicitation modes the sessions started from now on advertise and serve
// (acp.Config.Elicit): those the front end can put to a person. The default is none.
func (h *Hub) SetElicit(m acp.ElicitModes) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.elicit = m
}

// AgentSource finds the agent to start by id, ready to launch (its environment complete), and
// masks the secret values it handed out (nil Masker: there are none). Find may wait on the
// keyring, never on an agent.
type AgentSource interface {
	Find(id string) (agents.Agent, error)
	Masker() *agents.Masker
}

// The window and the command line start agents from the catalog.
var _ AgentSource = (*agents.Catalog)(nil)

// The hub's emitters pass batches on as batches (acp.EmitAll): the page gets one message per
// flush of the event pump.
var (
	_ acp.BatchEmitter = recordThen{}
	_ acp.BatchEmitter = (*maskedEmitter)(nil)
)

// New creates a hub over st (nil: nothing is saved) and the agents that can be started. Lines
// given to logf (the hub's, and the engine's: an agent's stray stdout, its errors) have the
// agents' secret values masked.
func New(st *store.Store, list AgentSource, logf func(string, ...any)) *Hub {
	if m := list.Masker(); m != nil {
		plain := logf
		logf = func(format string, args ...any) { plain("%s", m.Mask(fmt.Sprintf(format, args...))) }
	}
	return &Hub{store: st, agents: list, now: time.Now, logf: logf, sessions: map[string]*acp.Session{}, recorders: map[string]*recorder{},
		leases: map[string]*store.Lease{}, ownerName: defaultOwnerName, starts: map[string]*startOutcome{}, rules: newRuleBook(st)}
}

// SessionInfo describes a started session to the UI (the window binds it as its own type, so
// its fields and JSON names are part of the page's contract).
type SessionInfo struct {
	SessionID string `json:"sessionId"`
	AgentID   string `json:"agentId"`
	AgentName string `json:"agentName"`
	Cwd       string `json:"cwd"`

	// AgentVersion is the installed version of an agent from the ACP registry, else "".
	AgentVersion string `json:"agentVersion,omitempty"`
	// Worktree is the git worktree the session runs in (StartRequest.Worktree), else nil; Cwd
	// is then the project's folder in it.
	Worktree *store.Worktree `json:"worktree,omitempty"`
}

// StartRequest says which agent to start where.
type StartRequest struct {
	AgentID    string
	Cwd        string
	AuthMethod string // optional: log in with this auth method of the agent first
	// HardStopAfter is how long after Stop an agent that has not ended the turn is stopped
	// hard, by the session itself (0: acp.DefaultHardStopAfter, 30 s).
	HardStopAfter time.Duration
	// RawEvents hands out the events unmasked: the emitter masks what it shows itself (the
	// CLI masks its output stream). The history is masked either way.
	RawEvents bool
	// Dirs are the session's additional folders (ACP additionalDirectories), each existing.
	Dirs []string
	// MCP names the MCP servers to pass to the agent, exactly those (`agentdesk run --mcp`);
	// nil passes the ones configured for the agent.
	MCP []string
	// Worktree runs the session in a new git worktree of the repository that holds Cwd, on a
	// branch agentdesk/s-<id>, kept in the history's folder (SetWorktrees); the person's own
	// tree is not touched. A folder outside a repository is refused.
	Worktree bool
	// Carry brings the person's uncommitted changes and untracked files into the new worktree
	// (worktree.Manager.Carry); only with Worktree.
	Carry bool
}

// Start validates the agent and folder, then creates the session and starts the agent in the
// background; out receives every event (state starting first), with the agents' secret values
// masked unless req.RawEvents. The history records the masked events (liveMasker), so what is
// saved holds no value the masker knew. Errors here are the user's to fix (unknown agent,
// missing folder); later failures arrive as events.
func (h *Hub) Start(req StartRequest, out acp.Emitter) (*acp.Session, SessionInfo, error) {
	agent, err := h.findAgent(req.AgentID)
	if err != nil {
		return nil, SessionInfo{}, err
	}
	cwd := req.Cwd
	if strings.TrimSpace(cwd) == "" && agent.Folder != "" {
		cwd = agent.Folder // a custom agent's default folder
	}
	dir, dirs, mcp, err := h.checkPlace(agent.ID, cwd, req.Dirs, req.MCP)
	if err != nil {
		return nil, SessionInfo{}, err
	}
	id := uuid.NewString()
	lease, err := h.claim(context.Background(), id)
	if err != nil {
		return nil, SessionInfo{}, refused("start", id, err)
	}
	var tree *store.Worktree
	if req.Worktree {
		t, err := h.makeWorktree(dir, id, req.Carry)
		if err != nil {
			h.release(lease)
			return nil, SessionInfo{}, err
		}
		tree, dir = storedWorktree(t, dir), t.Cwd
	}
	var rec *recorder
	if h.store != nil {
		rec = newRecorder(h.store.Writer(), id, agent, h.now, h.logf)
		now := h.now()
		h.store.Writer().CreateSession(store.Session{ID: id, AgentID: agent.ID, AgentCmd: agent.Line, AgentName: agent.Name, Cwd: dir, Dirs: dirs,
			Title: "New session", Outcome: store.OutcomeReady, CreatedAt: now, UpdatedAt: now})
		if tree != nil {
			h.store.Writer().SetWorktree(id, *tree)
		}
	}
	s, info := h.launch(launch{id: id, agent: agent, dir: dir, dirs: dirs, req: req, rec: rec, mcp: mcp, lease: lease}, out)
	info.Worktree = tree
	return s, info, nil
}

// Session returns the live session with id, or a *NoLiveSessionError.
func (h *Hub) Session(id string) (*acp.Session, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	s, ok := h.sessions[id]
	if !ok {
		return nil, &NoLiveSessionError{ID: id}
	}
	return s, nil
}

// Detach stops saving a live session, or a subagent session of one, whose saved copy was deleted
// (with its subagent sessions, which the store deletes with it); it keeps running.
func (h *Hub) Detach(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if rec, ok := h.recorders[id]; ok {
		rec.detached.Store(true)
		return
	}
	for _, rec := range h.recorders {
		rec.detachChild(id)
	}
}

// Renamed records that the user named session id, so the agent's titles no longer replace it.
func (h *Hub) Renamed(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if rec, ok := h.recorders[id]; ok {
		rec.titled.Store(true)
	}
}

// Resave queues a whole copy of every live session that is being saved, each in order with
// its events (see recorder.saveCopy), to put back what failed writes lost. The caller Flushes
// the store to learn whether the copies were written. It never waits on the agents.
func (h *Hub) Resave() {
	type pair struct {
		s   *acp.Session
		rec *recorder
	}
	var live []pair
	h.mu.Lock()
	for id, s := range h.sessions {
		if rec := h.recorders[id]; rec != nil {
			live = append(live, pair{s, rec})
		}
	}
	h.mu.Unlock()
	for _, p := range live {
		asid := p.s.AgentSessionID() // not inside fn: it runs on the session's event pump
		p.s.Checkpoint(func(snap acp.Snapshot) { p.rec.saveCopy(snap, asid) })
	}
}

// CloseAll stops every agent (the stop ladder, in parallel), waits for the starts still under
// way to end (each is cancelled), and flushes the store: no session of this hub runs or writes
// after it returns.
func (h *Hub) CloseAll(ctx context.Context) error {
	h.mu.Lock()
	list := make([]*acp.Session, 0, len(h.sessions))
	starts := make([]*startOutcome, 0, len(h.sessions))
	for id, s := range h.sessions {
		list = append(list, s)
		starts = append(starts, h.starts[id])
	}
	leases := h.leases
	h.sessions, h.leases = map[string]*acp.Session{}, map[string]*store.Lease{}
	h.mu.Unlock()
	defer func() { // once their last events are saved (or could not be)
		for _, l := range leases {
			h.release(l)
		}
	}()
	var wg sync.WaitGroup
	for _, s := range list {
		wg.Add(1)
		go func() { defer wg.Done(); _ = s.Close() }()
	}
	wg.Wait()
	h.stopChecks()
	// A start still under way (launching the agent, or its handshake) ends now that its session
	// is closed; wait for it, so that nothing of these sessions runs after CloseAll.
	for _, o := range starts {
		o.cancel()
		<-o.over
	}
	if h.store != nil && h.store.Writer() != nil { // nil: a copy opened read-only, which queues nothing
		return h.store.Writer().Flush(ctx)
	}
	return nil
}

// recordThen records each event in the store, then passes it on, batches as batches.
type recordThen struct {
	rec *recorder
	out acp.Emitter
}

var _ acp.BatchEmitter = recordThen{}

// Emit records ev and passes it on.
func (r recordThen) Emit(ev acp.Event) {
	r.rec.Record(ev)
	r.out.Emit(ev)
}

// EmitBatch records evs and passes them on in one call when out takes batches.
func (r recordThen) EmitBatch(evs []acp.Event) {
	for _, ev := range evs {
		r.rec.Record(ev)
	}
	acp.EmitAll(r.out, evs)
}
