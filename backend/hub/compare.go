package hub

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"agentdesk/backend/acp"
	"agentdesk/backend/compare"
	"agentdesk/backend/store"
)

// MaxCompared is how many agents one comparison gives its task to at most.
const MaxCompared = 8

// CheckTimeout bounds one run of a comparison's check command.
const CheckTimeout = 10 * time.Minute

// CompareRequest gives one task to several agents at once, each in a worktree of its own.
type CompareRequest struct {
	Cwd    string
	Agents []string // agent ids, 2 to MaxCompared (one agent may be given twice)
	Prompt string
	// Check is a command run with sh in each session's worktree after each of its turns ("" for
	// none): `go test ./...`, say.
	Check string
	// RawEvents: as StartRequest.RawEvents.
	RawEvents bool
}

// ComparisonInfo is a comparison just started: its id and its sessions, in the order asked.
type ComparisonInfo struct {
	ID       string        `json:"id"`
	Sessions []SessionInfo `json:"sessions"`
}

// comparing is what the hub knows of the comparisons it started: for each member session, its
// comparison's check command and where its first turn and check stand.
type comparing struct {
	mu      sync.Mutex
	members map[string]*member // by session id
	groups  map[string][]*member
	stop    context.CancelFunc // ends every check still running (CloseAll)
	ctx     context.Context
	running sync.WaitGroup // the checks running
}

// member is one session of a comparison started here. Its events may come before Start has
// returned its id and folder: joined is closed once they are set.
type member struct {
	prompt, check string
	id, dir       string // set by join
	joined        chan struct{}
	prompted      bool
	checking      bool
	first         chan struct{} // closed once its first turn and that turn's check are over
	firstOnce     sync.Once
}

func (c *comparing) init() {
	if c.members == nil {
		c.members, c.groups = map[string]*member{}, map[string][]*member{}
		c.ctx, c.stop = context.WithCancel(context.Background())
	}
}

// StartComparison starts req's agents in req.Cwd, each in a new git worktree of its own, sends
// each the prompt once it is ready, runs the check command in each worktree after each turn
// (its result in the history: store.Check) and records the comparison. It returns once every
// session is starting; out receives their events as for Start. Errors are the user's to fix (an
// agent that cannot start, a folder without a repository, a bad request): nothing is left
// started then, and the worktrees made for it are removed.
func (h *Hub) StartComparison(req CompareRequest, out acp.Emitter) (ComparisonInfo, error) {
	if err := checkCompare(req); err != nil {
		return ComparisonInfo{}, err
	}
	for _, id := range req.Agents {
		if _, err := h.agents.Find(id); err != nil {
			return ComparisonInfo{}, fmt.Errorf("compare: %w", err)
		}
	}
	if c := h.ChooseWorktree(context.Background(), req.Cwd); !c.Possible {
		return ComparisonInfo{}, fmt.Errorf("compare needs a worktree for each agent, and there is none for %s: %s", req.Cwd, c.Why)
	}
	info := ComparisonInfo{ID: uuid.NewString()}
	for _, agentID := range req.Agents {
		m := &member{prompt: req.Prompt, check: strings.TrimSpace(req.Check), joined: make(chan struct{}), first: make(chan struct{})}
		watch := &watchEmitter{out: out, watch: func(ev acp.Event) { h.onMemberEvent(m, ev) }}
		_, s, err := h.Start(StartRequest{AgentID: agentID, Cwd: req.Cwd, Worktree: true, RawEvents: req.RawEvents}, watch)
		if err == nil {
			h.join(info.ID, m, s)
			info.Sessions = append(info.Sessions, s)
			continue
		}
		h.undoComparison(info)
		return ComparisonInfo{}, fmt.Errorf("compare: %w", err)
	}
	if h.store != nil {
		members := make([]string, len(info.Sessions))
		for i, s := range info.Sessions {
			members[i] = s.SessionID
		}
		h.store.Writer().CreateComparison(store.Comparison{ID: info.ID, Cwd: req.Cwd, Prompt: req.Prompt, Check: req.Check,
			CreatedAt: h.now(), Members: members})
	}
	return info, nil
}

// rejoin makes session id, continued, run its comparison's check after each of its turns again
// (a comparison started by an earlier agentdesk, say): it returns out wrapped to watch the
// session, and the join to call with the session's info once launched. A session of no
// comparison, or of one without a check, gets out as it is.
func (h *Hub) rejoin(ctx context.Context, id string, out acp.Emitter) (acp.Emitter, func(SessionInfo)) {
	cid, ok, err := h.store.ComparisonOf(ctx, id)
	if err != nil || !ok {
		return out, func(SessionInfo) {}
	}
	c, err := h.store.Comparison(ctx, cid)
	if err != nil || strings.TrimSpace(c.Check) == "" {
		return out, func(SessionInfo) {}
	}
	// Prompted already: its comparison's prompt went out in its first run.
	m := &member{check: strings.TrimSpace(c.Check), prompted: true, joined: make(chan struct{}), first: make(chan struct{})}
	return &watchEmitter{out: out, watch: func(ev acp.Event) { h.onMemberEvent(m, ev) }}, func(s SessionInfo) { h.join(cid, m, s) }
}

// checkCompare refuses a request that cannot make a comparison, in words.
func checkCompare(req CompareRequest) error {
	switch {
	case len(req.Agents) < 2:
		return errors.New("a comparison needs at least two agents (one agent twice will do)")
	case len(req.Agents) > MaxCompared:
		return fmt.Errorf("a comparison takes at most %d agents", MaxCompared)
	case strings.TrimSpace(req.Prompt) == "":
		return errors.New("a comparison needs a prompt")
	case len(req.Check) > compare.MaxCheckCommand:
		return fmt.Errorf("the check command is over %d KiB", compare.MaxCheckCommand>>10)
	}
	return nil
}

// join makes m, started as session s, a member of comparison id.
func (h *Hub) join(id string, m *member, s SessionInfo) {
	h.comparing.mu.Lock()
	defer h.comparing.mu.Unlock()
	h.comparing.init()
	m.id, m.dir = s.SessionID, s.Cwd
	close(m.joined)
	h.comparing.members[s.SessionID] = m
	h.comparing.groups[id] = append(h.comparing.groups[id], m)
}

// undoComparison closes the sessions a failed StartComparison started, removes their worktrees
// and their rows.
func (h *Hub) undoComparison(info ComparisonInfo) {
	ctx := context.Background()
	for _, s := range info.Sessions {
		if err := h.DiscardWorktree(ctx, s.SessionID); err != nil {
			h.logf("compare: remove the worktree of %s: %v", s.SessionID, err)
		}
		if h.store != nil {
			_ = h.store.DeleteSession(ctx, s.SessionID)
		}
	}
	h.comparing.mu.Lock()
	delete(h.comparing.groups, info.ID)
	for _, s := range info.Sessions {
		delete(h.comparing.members, s.SessionID)
	}
	h.comparing.mu.Unlock()
}

// onMemberEvent watches member m's events (watchEmitter): the first time it is ready it is sent
// the prompt; after each of its turns the check runs. It runs on the session's event pump:
// anything that waits goes to a goroutine of its own.
func (h *Hub) onMemberEvent(m *member, ev acp.Event) {
	if ev.ParentID != "" {
		return
	}
	h.comparing.mu.Lock()
	h.comparing.init()
	ctx := h.comparing.ctx
	switch {
	case ev.Kind == acp.EventState && ev.State == acp.StateIdle && !m.prompted:
		m.prompted = true
		h.comparing.mu.Unlock()
		go h.promptMember(m, ev.SessionID)
		return
	case ev.Kind == acp.EventState && (ev.State == acp.StateFailed || ev.State == acp.StateExited),
		ev.Kind == acp.EventTurnEnd && m.check == "":
		h.comparing.mu.Unlock()
		m.firstOnce.Do(func() { close(m.first) }) // no turn, or no check, to wait for
		return
	case ev.Kind == acp.EventTurnEnd:
		m.checking = true
		h.comparing.running.Add(1)
		h.comparing.mu.Unlock()
		go func() {
			defer h.comparing.running.Done()
			h.runCheck(ctx, m, ev.Turn)
		}()
		return
	}
	h.comparing.mu.Unlock()
}

// promptMember sends member m, session id, its comparison's prompt.
func (h *Hub) promptMember(m *member, id string) {
	s, err := h.Session(id)
	if err == nil {
		_, err = s.Prompt(m.prompt)
	}
	if err != nil {
		h.logf("compare: send the prompt to %s: %v", id, err)
		m.firstOnce.Do(func() { close(m.first) })
	}
}

// runCheck runs m's check command in its worktree after turn turn and records how it went.
func (h *Hub) runCheck(ctx context.Context, m *member, turn int) {
	ctx, cancel := context.WithTimeout(ctx, CheckTimeout)
	defer cancel()
	defer func() {
		h.comparing.mu.Lock()
		m.checking = false
		h.comparing.mu.Unlock()
		m.firstOnce.Do(func() { close(m.first) })
	}()
	select {
	case <-m.joined:
	case <-ctx.Done():
		return
	}
	c := compare.RunCheck(ctx, m.dir, m.check, os.Environ())
	c.Turn = turn
	if mask := h.agents.Masker(); mask != nil {
		c.Output = mask.Mask(c.Output)
	}
	if h.store != nil {
		h.store.Writer().SaveCheck(m.id, c)
		h.flush(context.Background())
	}
}

// WaitComparison blocks until every session of comparison id started here has ended its first
// turn (or could not have one) and that turn's check is over, or ctx ends (its error).
func (h *Hub) WaitComparison(ctx context.Context, id string) error {
	h.comparing.mu.Lock()
	group := append([]*member(nil), h.comparing.groups[id]...)
	h.comparing.mu.Unlock()
	for _, m := range group {
		select {
		case <-m.first:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// checking says whether a check of session id runs now.
func (h *Hub) checking(id string) bool {
	h.comparing.mu.Lock()
	defer h.comparing.mu.Unlock()
	m := h.comparing.members[id]
	return m != nil && m.checking
}

// stopChecks kills every check still running and waits until each has recorded how it ended
// (CloseAll: nothing outlives the hub, and the history has them before it closes).
func (h *Hub) stopChecks() {
	h.comparing.mu.Lock()
	if h.comparing.stop != nil {
		h.comparing.stop()
		h.comparing.members, h.comparing.groups, h.comparing.stop = nil, nil, nil
	}
	h.comparing.mu.Unlock()
	h.comparing.running.Wait()
}

// watchEmitter passes every event to out, after watch has seen it.
type watchEmitter struct {
	out   acp.Emitter
	watch func(acp.Event)
}

var _ acp.BatchEmitter = (*watchEmitter)(nil)

// Emit implements acp.Emitter.
func (w *watchEmitter) Emit(ev acp.Event) {
	w.watch(ev)
	w.out.Emit(ev)
}

// EmitBatch implements acp.BatchEmitter: the batch goes on as one.
func (w *watchEmitter) EmitBatch(evs []acp.Event) {
	for _, ev := range evs {
		w.watch(ev)
	}
	acp.EmitAll(w.out, evs)
}
