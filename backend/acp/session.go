package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"sync"
	"time"

	"agentdesk/backend/acp/jsonrpc"
)

// Config describes a session to start. Launch, Emitter and Cwd are required.
type Config struct {
	ID         string                                       // our id for the session (a uuid); events carry it
	AgentName  string                                       // for messages and snapshots
	Cwd        string                                       // absolute session folder, sent in session/new
	Launch     func(ctx context.Context) (Transport, error) // starts the agent
	Emitter    Emitter                                      // receives the session's events
	Journal    jsonrpc.Tap                                  // every message in and out, as on the wire; must not block or modify line
	ClientInfo Implementation
	// AuthMethod, when set, is the agent's auth method to log in with before the session opens
	// (env_var values must already be in the agent's environment).
	AuthMethod string
	Logf       func(string, ...any)
	// CloseGrace is how long each step of the stop ladder waits (default 2 s).
	CloseGrace time.Duration
	// HardStopAfter is how long after Stop the session waits for the agent to end the turn
	// before it stops the agent hard by itself, as HardStop does (default DefaultHardStopAfter;
	// negative: never, the caller decides).
	HardStopAfter time.Duration
	// AfterFunc is the time source of that wait (default: time.AfterFunc).
	AfterFunc AfterFunc
	// Env is the environment the agent was launched with, the base of its terminals' (to which
	// terminal/create adds the variables it names). It must hold no secret but the agent's own:
	// none of agentdesk's and none of another agent's. nil: the Transport's Env() when it has
	// one, else only a few harmless variables of this process (PATH, HOME, LANG...), never all.
	Env []string

	serveHook func(method string) // tests: runs on a worker before each fs/* and terminal/create
}

// TurnSummary is how a turn ended, for snapshots.
type TurnSummary struct {
	Turn       int    `json:"turn"`
	StopReason string `json:"stopReason,omitempty"`
	Message    string `json:"message,omitempty"`
}

// Snapshot is a session's whole visible state at event Seq; the UI replaces its state with it
// after a gap in seq. The same shape shows saved sessions (State "").
type Snapshot struct {
	SessionID   string              `json:"sessionId"`
	Seq         uint64              `json:"seq"`
	State       State               `json:"state"`
	Message     string              `json:"message,omitempty"`
	AgentName   string              `json:"agentName"`
	Cwd         string              `json:"cwd"`
	Title       string              `json:"title"`
	Entries     []Entry             `json:"entries"`
	Permissions []PermissionSummary `json:"permissions"`
	Turns       []TurnSummary       `json:"turns"`
	Stderr      string              `json:"stderr,omitempty"`
	Controls    *Controls           `json:"controls,omitempty"`
}

// ErrBusy is returned by Prompt when the session is not idle.
var ErrBusy = errors.New("the agent is busy with a turn; wait for it to end or press Stop")

// ErrClosed is returned by Prompt once Close has been called.
var ErrClosed = errors.New("the session is closed")

// Session is one ACP session with one agent process: the state machine starting → idle →
// running → cancelling → idle, or exited / failed. All methods are safe for concurrent use and
// none waits on the agent except Start and Close.
type Session struct {
	cfg  Config
	pump *pump

	mu             sync.Mutex
	state          State
	stateMsg       string
	tr             *Transcript
	perms          map[string]*pendingPermission
	turns          []TurnSummary
	title          string
	agentSessionID string
	authMethods    []AuthMethod
	loginNeeded    *AuthRequiredError // the last turn failed for want of a login (LoginNeeded)
	controls       Controls
	early          []json.RawMessage // session/update params that arrived before session/new returned
	transport      Transport
	conn           *jsonrpc.Conn
	handler        *connHandler // the current connection's: its workers are shut by Close
	turnActive     bool
	promptSent     bool // the running turn's session/prompt is on the wire: Stop may cancel it
	hardStopped    bool
	closing        bool // Close was called: the exit is ours, not news
	replaying      bool // session/load is replaying history we already have
	caps           AgentCapabilities
	watchDone      chan struct{}  // closed when the current connection's watch has finished
	turnWG         sync.WaitGroup // the running turn's goroutine (runTurn): Close waits for it

	// connGen counts the agent processes this session started or gave up on: Continue moves it
	// on before it launches the next one, so the old process's watcher can tell that its exit
	// no longer says anything about the session.
	connGen uint64

	hardStopCancel func() bool // cancels the automatic hard stop of a cancelling turn (stopladder.go)
	stopIgnoredMsg string      // why the automatic hard stop happened, until the turn has ended
}

// NewSession creates a session in state starting; call Start next.
func NewSession(cfg Config) *Session {
	if cfg.Logf == nil {
		cfg.Logf = log.Printf
	}
	if cfg.CloseGrace == 0 {
		cfg.CloseGrace = 2 * time.Second
	}
	if cfg.HardStopAfter == 0 {
		cfg.HardStopAfter = DefaultHardStopAfter
	}
	if cfg.AfterFunc == nil {
		cfg.AfterFunc = realAfterFunc
	}
	s := &Session{cfg: cfg, tr: NewTranscript(), perms: map[string]*pendingPermission{}}
	s.pump = newPump(cfg.ID, cfg.Emitter, cfg.Logf)
	s.mu.Lock()
	s.setStateLocked(StateStarting, "")
	s.mu.Unlock()
	return s
}

// ID is our id of the session.
func (s *Session) ID() string { return s.cfg.ID }

// AgentSessionID is the agent's own id of the session, "" until session/new has returned.
func (s *Session) AgentSessionID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.agentSessionID
}

// State is the current state.
func (s *Session) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state
}

// Prompt starts a turn with text and returns its number at once; the turn ends with a turn_end
// event. It fails with ErrBusy unless the session is idle.
func (s *Session) Prompt(text string) (int, error) { return s.PromptWith(text, nil) }

// PromptWith starts a turn with text and attachments, like Prompt. Each attachment becomes a
// content block the agent accepts: a file of the session folder is embedded when the agent
// accepts embedded context and it is small text, else linked; an image needs the agent's image
// capability. A file outside the folder, an image the agent does not accept or one that is too
// large fails the call (*AttachError) and nothing is sent.
func (s *Session) PromptWith(text string, attachments []Attachment) (int, error) {
	if err := s.idleErr(); err != nil {
		return 0, err
	}
	s.mu.Lock()
	caps := s.caps.PromptCapabilities
	s.mu.Unlock()
	extra, infos, err := buildAttachments(s.cfg.Cwd, s.cfg.AgentName, caps, attachments) // file I/O: no lock held
	if err != nil {
		return 0, err
	}
	blocks := make([]ContentBlock, 0, 1+len(extra))
	if text != "" || len(extra) == 0 {
		blocks = append(blocks, TextBlock(text))
	}
	blocks = append(blocks, extra...)

	s.mu.Lock()
	if err := s.idleErrLocked(); err != nil {
		s.mu.Unlock()
		return 0, err
	}
	turn := s.tr.Turn() + 1
	s.pushChange(s.tr.StartTurn(turn, text, infos...))
	s.turnActive = true
	s.setStateLocked(StateRunning, "")
	params := PromptParams{SessionID: s.agentSessionID, Prompt: blocks}
	conn := s.conn
	s.promptSent = false
	s.turnWG.Add(1) // under s.mu with closing false: Close's Wait comes after every Add
	s.mu.Unlock()
	go s.runTurn(conn, turn, params)
	return turn, nil
}

// runTurn sends a turn's session/prompt and ends the turn with the answer; it runs on a
// goroutine of its own from PromptWith.
func (s *Session) runTurn(conn *jsonrpc.Conn, turn int, params PromptParams) {
	defer s.turnWG.Done()
	var res PromptResult
	p, err := conn.Start(MethodSessionPrompt, params)
	// A Stop before the prompt was on the wire left the cancel to us (see Stop): it must follow
	// the prompt, or the agent would cancel nothing and run the whole turn.
	s.mu.Lock()
	s.promptSent = true
	cancel := err == nil && s.state == StateCancelling && s.tr.Turn() == turn
	id := s.agentSessionID
	s.mu.Unlock()
	if cancel {
		if cerr := conn.Notify(MethodSessionCancel, CancelParams{SessionID: id}); cerr != nil {
			s.cfg.Logf("session %s: send cancel to %s: %v", s.cfg.ID, s.cfg.AgentName, cerr)
		}
	}
	if err == nil {
		// No deadline and never cancelled by context: Stop sends session/cancel instead.
		err = p.Wait(context.Background(), &res)
	}
	s.endTurn(turn, res, err)
}

func (s *Session) idleErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.idleErrLocked()
}

// idleErrLocked says why a prompt cannot start now, or nil when the session is idle.
func (s *Session) idleErrLocked() error {
	if s.closing {
		return ErrClosed
	}
	switch s.state {
	case StateIdle:
		return nil
	case StateExited, StateFailed:
		return fmt.Errorf("the session has %s: start a new session", s.state)
	}
	return ErrBusy
}

// LoginNeeded returns why the last turn failed when the agent answered its prompt with
// "authentication required" (some agents, like the Claude Code adapter, ask only then), with
// the login methods it offers; nil when the last turn did not fail that way. The app offers
// those methods and starts a new session once the user has logged in.
func (s *Session) LoginNeeded() *AuthRequiredError {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.loginNeeded
}

// Cwd is the session folder.
func (s *Session) Cwd() string { return s.cfg.Cwd }

// FindFiles lists files of the session folder for attaching (see Folder.FindFiles).
func (s *Session) FindFiles(query string, limit int) ([]FolderFile, error) {
	f, err := NewFolder(s.cfg.Cwd)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.FindFiles(query, limit), nil
}

// endTurn records the reply to a turn's prompt (or its failure) and returns to idle.
func (s *Session) endTurn(turn int, res PromptResult, err error) {
	if err != nil {
		err = s.explain(err)
	}
	s.mu.Lock()
	err = s.asAuthRequired(err, s.authMethods) // the Claude adapter asks for a login only on prompt
	s.loginNeeded = nil
	if authErr := (*AuthRequiredError)(nil); errors.As(err, &authErr) {
		s.loginNeeded = authErr
	}
	ts := TurnSummary{Turn: turn, StopReason: res.StopReason}
	cancelling := s.state == StateCancelling
	s.disarmHardStopLocked()
	switch {
	case s.hardStopped && s.stopIgnoredMsg != "":
		ts.StopReason, ts.Message = StopInterrupted, s.stopIgnoredMsg
	case s.hardStopped:
		ts.StopReason, ts.Message = StopInterrupted, "stopped hard: the agent's processes were killed"
	case cancelling:
		// A turn the user stopped is cancelled whatever the agent answered; its answer is journaled.
		ts.StopReason = StopCancelled
	case err != nil:
		ts.StopReason, ts.Message = StopError, err.Error()
		var data json.RawMessage
		var rpcErr *jsonrpc.Error
		if errors.As(err, &rpcErr) {
			data = rpcErr.Data
		}
		s.pushChange(s.tr.AddError(err.Error(), data, s.transport.StderrTail()))
	case ts.StopReason == "":
		ts.StopReason = StopEndTurn
	}
	// No card stays "jsonrpc.Pending" under a finished turn (acp-client.md §7): after Stop the calls
	// that came late are cancelled too; otherwise the agent left them open.
	open := StatusIncomplete
	if ts.StopReason == StopCancelled || ts.StopReason == StopInterrupted {
		open = StatusCancelled
	}
	for _, c := range s.tr.CloseOpenTools(open) {
		s.pushChange(c)
	}
	reqs := s.takePermissionsLocked()
	s.turns = append(s.turns, ts)
	s.turnActive = false
	s.pushEvent(Event{Kind: EventTurnEnd, Turn: turn, StopReason: ts.StopReason, Message: ts.Message})
	if s.conn.Err() != nil {
		s.setStateLocked(StateExited, s.exitMessage(false))
	} else {
		s.setStateLocked(StateIdle, "")
	}
	s.stopIgnoredMsg = ""
	s.mu.Unlock()
	replyCancelled(reqs)
}

// Stop cancels the running turn: session/cancel, every open permission answered "cancelled",
// unfinished tool calls shown cancelled, state cancelling. The turn ends when the agent replies
// to the prompt; late updates are still shown. An agent that has not replied HardStopAfter
// later is stopped hard (see HardStop), and the turn ends interrupted. Stop on a session that
// is not running is a no-op.
func (s *Session) Stop() error {
	s.mu.Lock()
	if s.state != StateRunning {
		s.mu.Unlock()
		return nil
	}
	s.setStateLocked(StateCancelling, "")
	s.armHardStopLocked()
	reqs := s.takePermissionsLocked()
	for _, c := range s.tr.CloseOpenTools(StatusCancelled) {
		s.pushChange(c)
	}
	conn, id, sent := s.conn, s.agentSessionID, s.promptSent
	s.mu.Unlock()
	var err error
	if sent { // else the turn's goroutine sends the cancel once the prompt is written
		err = conn.Notify(MethodSessionCancel, CancelParams{SessionID: id})
	}
	replyCancelled(reqs)
	if err != nil {
		return fmt.Errorf("send cancel to %s: %w", s.cfg.AgentName, err)
	}
	return nil
}

// HardStop kills the agent's whole process group (the stop ladder) when it does not honour a
// Stop; the running turn ends as interrupted and the session as exited. It returns once the
// agent is gone.
func (s *Session) HardStop() error {
	s.mu.Lock()
	if s.transport == nil {
		s.mu.Unlock()
		return errors.New("the agent is not running")
	}
	s.hardStopped = s.turnActive
	tr := s.transport
	s.mu.Unlock()
	return tr.Close(s.cfg.CloseGrace)
}

// Close ends the session: a running turn is stopped first (as Stop does: its open permissions
// are answered cancelled, so an agent blocked on one can end the turn), fs/* and terminal/create
// requests still waiting for a worker are answered "the session is closing", then the agent is
// stopped with the stop ladder, requests running are finished and the last events are
// delivered; the turn ends cancelled, and its turn_end is delivered before Close returns. No
// turn starts once Close is called (ErrClosed). Safe to call more than once.
func (s *Session) Close() error {
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	if err := s.Stop(); err != nil {
		s.cfg.Logf("session %s: %v", s.cfg.ID, err)
	}
	s.closeAgentSession()
	s.mu.Lock()
	s.disarmHardStopLocked()
	tr, watchDone, h := s.transport, s.watchDone, s.handler
	s.mu.Unlock()
	if h != nil {
		h.work.close() // requests still waiting for a worker are answered while the agent listens
	}
	if tr != nil {
		_ = tr.Close(s.cfg.CloseGrace)
		<-watchDone
	}
	// The watch returns early while a turn is active: the turn's own goroutine ends it once the
	// connection is gone, and its turn_end must reach the pump before the pump closes.
	s.turnWG.Wait()
	s.pump.close()
	return nil
}

// watch turns the end of one connection into state exited (a running turn's own goroutine
// reports that turn). done is closed when it has.
func (s *Session) watch(conn *jsonrpc.Conn, tr Transport, done chan struct{}, gen uint64) {
	defer close(done)
	<-conn.Done()
	lingered := !exitsWithin(tr, s.cfg.CloseGrace)
	if lingered {
		// The connection is over but the agent runs on (it closed its output, or sent a line
		// too long): it is of no use now, and must not outlive its session as an orphan.
		s.cfg.Logf("session %s: %s: %v; stopping it", s.cfg.ID, s.cfg.AgentName, conn.Err())
		_ = tr.Close(s.cfg.CloseGrace)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn != conn || s.connGen != gen || s.turnActive || s.state == StateExited || s.state == StateFailed {
		return // a newer connection took over (or is being started), or the state already says it
	}
	s.takePermissionsLocked() // the agent is gone: there is no one to answer
	s.setStateLocked(StateExited, s.exitMessage(lingered))
}

// exitMessage says why the agent is gone; "" when agentdesk closed it. lingered: the agent ran
// on after its connection ended, and the watch stopped it.
func (s *Session) exitMessage(lingered bool) string {
	if s.closing {
		return ""
	}
	if s.stopIgnoredMsg != "" {
		return s.stopIgnoredMsg
	}
	return goneMessage(s.conn.Err(), s.transport, lingered)
}

// Snapshot returns the whole visible state, consistent with the last event delivered: it first
// delivers everything queued, so its Seq is exactly the last emitted event's.
func (s *Session) Snapshot() Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.snapshotLocked()
}

// Checkpoint calls fn with the session's snapshot at a point between two events: every event
// up to snap.Seq has been delivered to the Emitter, and none after it is until fn returns. A
// recorder uses it to write a copy in order with the events it records. fn runs on the
// caller's goroutine with the session locked: it must return quickly and not call the session.
func (s *Session) Checkpoint(fn func(snap Snapshot)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fn(s.snapshotLocked())
}

// snapshotLocked delivers the queued events and returns the state they lead to; the caller
// holds s.mu, so nothing new is queued meanwhile.
func (s *Session) snapshotLocked() Snapshot {
	seq := s.pump.flushSeq()
	snap := Snapshot{
		SessionID: s.cfg.ID, Seq: seq, State: s.state, Message: s.stateMsg,
		AgentName: s.cfg.AgentName, Cwd: s.cfg.Cwd, Title: s.title,
		Entries: s.tr.Entries(), Turns: append([]TurnSummary{}, s.turns...), Permissions: []PermissionSummary{},
	}
	for _, p := range s.perms {
		snap.Permissions = append(snap.Permissions, p.summary)
	}
	c := s.controls
	snap.Controls = &c
	if s.transport != nil {
		snap.Stderr = s.transport.StderrTail()
	}
	return snap
}

// Stderr is the tail of the agent's stderr.
func (s *Session) Stderr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.transport == nil {
		return ""
	}
	return s.transport.StderrTail()
}

func (s *Session) setStateLocked(st State, msg string) {
	s.state, s.stateMsg = st, msg
	s.pushEvent(Event{Kind: EventState, State: st, Message: msg})
}

func (s *Session) pushEvent(e Event) { s.pump.push(e) }

func (s *Session) pushChange(c Change) {
	if c.Entry != nil {
		s.pump.push(Event{Kind: EventEntry, Entry: c.Entry})
		return
	}
	s.pump.push(Event{Kind: EventChunk, EntryID: c.EntryID, Text: c.Text})
}

func (s *Session) tap(dir jsonrpc.Direction, method string, line []byte) {
	if s.cfg.Journal != nil {
		s.cfg.Journal(dir, method, line)
	}
}
