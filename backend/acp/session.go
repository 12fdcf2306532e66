package acp

import (
	"context"
	"encoding/json"
	"log"
	"slices"
	"sync"
	"time"

	"agentdesk/backend/acp/fsys"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/receipt"
	"agentdesk/backend/acp/schema"
)

// Config describes a session to start. Launch, Emitter and Cwd are required.
type Config struct {
	ID        string // our id for the session (a uuid); events carry it
	AgentName string // for messages and snapshots
	Cwd       string // absolute session folder, sent in session/new
	// Dirs are the session's additional folders (absolute, existing; ACP's additionalDirectories):
	// sent to an agent that takes them, and open to fs/*, terminals and attachments like Cwd.
	Dirs       []string
	Launch     func(ctx context.Context) (Transport, error) // starts the agent
	Emitter    Emitter                                      // receives the session's events
	Journal    jsonrpc.Tap                                  // every message in and out, as on the wire; must not block or modify line
	ClientInfo schema.Implementation
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
	// Seed, when set, is a saved session this one continues: call Reopen instead of Start.
	Seed *Seed
	// SummaryBudget bounds the summary of the saved turns a new agent session is given when
	// the agent cannot resume or load (default DefaultSummaryBudget, or less for an agent
	// whose context size a usage update gave; see summaryBudget).
	SummaryBudget int
	// MCPServers are passed to the agent in session/new, load and resume, those of a transport
	// the agent does not accept left out (with a notice in the transcript).
	MCPServers []MCPServer
	// Elicit is which elicitation modes the session advertises and serves: those its front end
	// can put to a person (the app: ElicitAll; the CLI: form only when it asks on a terminal).
	// The zero value advertises none, and every elicitation/create is refused -32602.
	Elicit ElicitModes
	// LearnSecret, when set, is given the value of every secret form field (format password,
	// writeOnly) before it is sent to the agent, so that the caller masks it wherever the agent
	// may echo it (the hub teaches the agents' Masker). It must not block.
	LearnSecret func(value string)
	// Turns, when set, is told when each turn starts and ends (the change ledger); what it
	// returns at the end goes into the turn's receipt.
	Turns TurnObserver
	// Rules, when set, decides permission requests before they are shown (the person's
	// permission rules) and offers the rules a person may make from one that is shown.
	Rules PermissionRules
	// Now is the session's clock for receipts (default time.Now).
	Now func() time.Time
	// AgentVersion is the agent's installed version when known (agents from the ACP
	// registry), for snapshots: the session header shows it.
	AgentVersion string
	// SystemPrompt is the person's house rules for this agent and folder (at most
	// MaxSystemPrompt bytes; "" none): sent as systemPrompt on session/new, load, resume and fork
	// when the agent advertises sessionCapabilities.systemPrompt (session_systemprompt.go).
	SystemPrompt string
	// OnAuthStatus, when set, is given the agent's sign-in state whenever it says it (auth/status
	// after initialize, its updates; session_authstatus.go), from the inbound loop or a goroutine
	// of its own. It must not block.
	OnAuthStatus func(AuthStatus)

	serveHook func(method string) // tests: runs on a worker before each fs/* and terminal/create
}

// Session is one ACP session with one agent process at a time (Continue starts the next).
// Its state machine (starting → idle → running → cancelling → idle, or exited / failed), the
// flags beside the state and their invariants are set out in session_state.go.
//
// All methods are safe for concurrent use. Start, Continue and Close wait for the agent, and
// SetMode, SetModel, SetConfigOption and ListAgentSessions for its answer (bounded by their
// context); Checkpoint waits for the Emitter. Nothing else waits, and nothing holds the
// session's lock while it waits: the agent's messages are handled on while any of these wait.
type Session struct {
	cfg      Config
	pump     *pump
	checking bool // unlock checks the invariants (tests)

	mu               sync.Mutex
	state            State
	stateMsg         string
	tr               *Transcript
	perms            permissionDesk  // permission requests parked, decisions made (session_permission.go)
	elicits          elicitationDesk // open and accepted elicitations (session_elicitation.go)
	turns            []TurnSummary
	title            string
	agentSessionID   string
	authMethods      []AuthMethod
	loginNeeded      *AuthRequiredError // the last turn failed for want of a login (LoginNeeded)
	controls         Controls
	early            []json.RawMessage // session/update params that arrived before session/new returned
	earlyBytes       int               // the size of early
	earlyDropped     int               // updates dropped beyond MaxEarlyUpdates/MaxEarlyBytes
	transport        Transport
	conn             *jsonrpc.Conn
	handler          *connHandler    // the current connection's: its workers are shut by Close
	turnActive       bool            // runTurn is running: state is running or cancelling
	promptSent       bool            // the running turn's session/prompt is on the wire: Stop may cancel it
	hardStopped      bool            // the agent was killed during a turn: it ends interrupted
	closing          bool            // Close was called: the exit is ours, not news
	replaying        bool            // session/resume or session/load is running: what the agent replays is not news
	replay           *replayed       // session/load's replay, folded apart (session_reopen.go); nil otherwise
	pendingSummary   string          // the summary the next session/prompt carries before the person's text
	allowedFiles     map[string]bool // real paths outside the folders the person chose to attach (AllowFile)
	draft            *receipt.Draft  // the running turn's receipt as it is gathered (session_receipt.go); nil between turns
	cost             *schema.Cost    // the session's cost as the agent last reported it (usage_update); nil until it does
	queue            promptQueue     // prompts sent during a turn (session_queue.go)
	steers           steerDesk       // the prompts steered into the running turn (session_steer.go)
	caps             AgentCapabilities
	agentInfo        *schema.Implementation // initialize's agentInfo, or nil (RunningVersion)
	subs             subagentDesk           // the child sessions the agent announced (session_subagents.go)
	mcpSkipTold      bool                   // the notice of MCP servers left out was shown
	dirsTold         bool                   // the notice of additional folders not sent was shown
	systemPromptTold bool                   // the notice of house rules not sent was shown
	watchDone        chan struct{}          // closed when the current connection's watch has finished
	turnWG           sync.WaitGroup         // the running turn's goroutine (runTurn): Close waits for it

	// connGen counts the agent processes this session started or gave up on: Continue moves it
	// on before it launches the next one, so the old process's watcher can tell that its exit
	// no longer says anything about the session.
	connGen uint64

	ladder    stopLadder // the automatic hard stop of a cancelling turn (session_stop.go)
	observing func()     // cancels the TurnObserver call in progress (a snapshot): Stop and hard stop end it (session_receipt.go)

	// secrets are the replies being written that carry a secret field's value: the journal
	// gets the masked copy (tap). Its own lock: tap runs under the connection's outbound queue lock.
	secrets secretReplies
}

// NewSession creates a session in state starting; call Start next, or Reopen for a seeded one
// (Config.Seed).
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
	s := &Session{cfg: cfg, tr: NewTranscript(), perms: newPermissionDesk(nil), elicits: newElicitationDesk(),
		checking: checkInvariants.Load()}
	if sd := cfg.Seed; sd != nil {
		s.tr = RestoreTranscript(sd.Entries)
		s.turns = append([]TurnSummary(nil), sd.Turns...)
		s.perms = newPermissionDesk(sd.Decisions)
		s.cost = lastCost(sd.Entries)
		s.title, s.agentSessionID = sd.Title, sd.AgentSessionID
	}
	s.pump = newPump(cfg.ID, cfg.Emitter, cfg.Logf)
	s.mu.Lock()
	s.setStateLocked(StateStarting, "")
	s.unlock()
	return s
}

// ID is our id of the session.
func (s *Session) ID() string { return s.cfg.ID }

// AgentSessionID is the agent's own id of the session, "" until session/new has returned.
func (s *Session) AgentSessionID() string {
	s.mu.Lock()
	defer s.unlock()
	return s.agentSessionID
}

// State is the current state.
func (s *Session) State() State {
	s.mu.Lock()
	defer s.unlock()
	return s.state
}

// LoginNeeded returns why the last turn failed when the agent answered its prompt with
// "authentication required" (some agents, like the Claude Code adapter, ask only then), with
// the login methods it offers; nil when the last turn did not fail that way. The app offers
// those methods and starts a new session once the user has logged in.
func (s *Session) LoginNeeded() *AuthRequiredError {
	s.mu.Lock()
	defer s.unlock()
	return s.loginNeeded
}

// Cwd is the session folder.
func (s *Session) Cwd() string { return s.cfg.Cwd }

// Dirs are the session's additional folders (Config.Dirs).
func (s *Session) Dirs() []string { return slices.Clone(s.cfg.Dirs) }

// FindFiles lists files of the session's folders for attaching (see Folders.FindFiles).
func (s *Session) FindFiles(query string, limit int) ([]fsys.FolderFile, error) {
	f, err := fsys.NewFolders(s.cfg.Cwd, s.cfg.Dirs)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.FindFiles(query, limit), nil
}

// Stderr is the tail of the agent's stderr.
func (s *Session) Stderr() string {
	s.mu.Lock()
	defer s.unlock()
	if s.transport == nil {
		return ""
	}
	return s.transport.StderrTail()
}

// SetOnScreen says whether a person is looking at the session (a window shows its transcript).
// Off screen, its entry and chunk events wait up to OffScreenCoalesceDelay to merge instead of
// CoalesceDelay; back on screen, what waits is delivered at once. Every other event goes at once
// either way, and the events and their order are the same. A session starts on screen. It never
// blocks.
func (s *Session) SetOnScreen(on bool) { s.pump.setOnScreen(on) }

// OnScreen reports what SetOnScreen last said (true until it is called).
func (s *Session) OnScreen() bool { return s.pump.onScreen() }

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
		s.cfg.Journal(dir, method, s.secrets.mask(dir, method, line))
	}
}
