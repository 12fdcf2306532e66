package terminal

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"

	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// Set is the client terminals of one agent connection, by id. The agent creates them,
// reads their output, waits for them, kills and releases them; when the connection ends, CloseAll
// kills every one left. Each runs in its own process group, and every signal goes to the whole
// group, so nothing a command starts outlives it.
//
// A command runs through a shell, as in other ACP clients (Zed): agents send whole command lines
// ("npm test -- --watch=false") as the command, and expect them to work. Args are quoted, so an
// agent that passes argv keeps each argument whole.
type Set struct {
	dir      string   // default working folder: the session's
	root     string   // the session folder, links resolved: every working folder is inside it or in extra
	extra    []string // the session's additional folders, links resolved
	env      []string // base environment: the agent's (see Session.terminalEnv)
	newID    func() string
	onChange func(id string, v View)
	OnStart  func(id, line string) // nil, or told of each command line started (for the turn's receipt)

	mu     sync.Mutex
	byID   map[string]*Terminal
	waits  map[string]chan struct{} // JSON-RPC id of a pending wait_for_exit → closed to cancel it
	closed bool
	wg     sync.WaitGroup // terminal goroutines, waits and stops in flight
}

// MaxRunning is how many commands of one connection may run at a time: an agent that starts
// commands without end must not fill the machine with processes.
const MaxRunning = 64

// MaxWaits is how many terminal/wait_for_exit requests of one connection may wait at a time:
// each parks a goroutine until its command exits.
const MaxWaits = 1024

// NewSet makes the terminals of one connection: commands start in dir (or a folder inside it or
// in extra) with env as their base environment; newID names each new terminal, and onChange
// receives each new view of one, on the terminal's own goroutines, never with a lock held.
func NewSet(dir string, extra []string, env []string, newID func() string, onChange func(string, View)) *Set {
	real := func(d string) string {
		if r, err := filepath.EvalSymlinks(d); err == nil {
			return r
		}
		return filepath.Clean(d)
	}
	roots := make([]string, len(extra))
	for i, d := range extra {
		roots[i] = real(d)
	}
	return &Set{dir: dir, root: real(dir), extra: roots, env: env, newID: newID, onChange: onChange,
		byID: map[string]*Terminal{}, waits: map[string]chan struct{}{}}
}

// Handle answers a terminal/* request but terminal/create (a worker runs create). It runs on the
// inbound loop and never blocks: waiting for an exit happens on another goroutine.
func (ts *Set) Handle(req *jsonrpc.Request) {
	switch req.Method {
	case schema.MethodTerminalWaitForExit:
		ts.waitForExit(req)
	case schema.MethodTerminalOutput:
		t, err := ts.lookup(req.Method, req.Params)
		if err != nil {
			req.Reply(nil, err)
			return
		}
		req.Reply(t.output(), nil)
	case schema.MethodTerminalKill:
		t, err := ts.lookup(req.Method, req.Params)
		if err == nil {
			t.kill() // the terminal stays: its output and wait_for_exit still work
		}
		req.Reply(struct{}{}, err)
	case schema.MethodTerminalRelease:
		t, err := ts.lookup(req.Method, req.Params)
		if err == nil {
			ts.mu.Lock()
			delete(ts.byID, t.id)
			ts.mu.Unlock()
			if !ts.spawn(t.stop) { // its last output still reaches the tool card
				t.kill()
			}
		}
		req.Reply(struct{}{}, err)
	}
}

var errClosing = &jsonrpc.Error{Code: schema.CodeInternalError, Message: "the session is closing"}

// spawn runs fn on a goroutine that CloseAll waits for; it reports false, and does nothing, once
// CloseAll has begun.
func (ts *Set) spawn(fn func()) bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.closed {
		return false
	}
	ts.wg.Add(1)
	go func() {
		defer ts.wg.Done()
		fn()
	}()
	return true
}

// enter counts a create that CloseAll must wait for; false once CloseAll has begun.
func (ts *Set) enter() bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.closed {
		return false
	}
	ts.wg.Add(1)
	return true
}

// Create starts the command of a terminal/create request and answers its id at once. It runs on
// a worker; at most MaxRunning commands of the connection run at a time.
func (ts *Set) Create(params json.RawMessage) (any, error) {
	if !ts.enter() {
		return nil, errClosing
	}
	defer ts.wg.Done()
	p, err := jsonrpc.DecodeParams[schema.CreateTerminalParams](schema.MethodTerminalCreate, params)
	if err != nil {
		return nil, err
	}
	cmd, err := ts.command(p)
	if err != nil {
		return nil, err
	}
	limit := MaxOutput
	if p.OutputByteLimit != nil && *p.OutputByteLimit >= 0 && *p.OutputByteLimit < int64(limit) {
		limit = int(*p.OutputByteLimit)
	}
	if n := ts.running(); n >= MaxRunning {
		return nil, &jsonrpc.Error{Code: schema.CodeInternalError, Message: fmt.Sprintf(
			"%d terminals of this session are still running: wait for one to exit, or kill or release one, before creating another", n)}
	}
	id := ts.newID()
	ts.wg.Add(1) // create itself is counted (enter): CloseAll cannot be waiting on a zero count
	t, err := startTerminal(id, cmd, limit, func(v View) { ts.onChange(id, v) }, ts.wg.Done)
	if err != nil {
		ts.wg.Done()
		return nil, &jsonrpc.Error{Code: schema.CodeInternalError, Message: fmt.Sprintf("start %q: %v", p.Command, err)}
	}
	ts.mu.Lock()
	closed := ts.closed
	if !closed {
		ts.byID[id] = t
	}
	ts.mu.Unlock()
	if closed { // the connection ended while the command started
		t.stop()
		return nil, errClosing
	}
	if ts.OnStart != nil {
		ts.OnStart(id, commandLine(p))
	}
	return schema.CreateTerminalResult{TerminalID: id}, nil
}

// Lookup returns the terminal named id, unless it was released or never created.
func (ts *Set) Lookup(id string) (*Terminal, bool) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	t, ok := ts.byID[id]
	return t, ok
}

// running is how many terminals' commands have not exited.
func (ts *Set) running() int {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	n := 0
	for _, t := range ts.byID {
		select {
		case <-t.exited:
		default:
			n++
		}
	}
	return n
}

// lookup finds the terminal a request names; an unknown or released id is -32602.
func (ts *Set) lookup(method string, params json.RawMessage) (*Terminal, error) {
	var p schema.TerminalParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, &jsonrpc.Error{Code: schema.CodeInvalidParams, Message: fmt.Sprintf("invalid %s params: %v", method, err)}
	}
	ts.mu.Lock()
	t, ok := ts.byID[p.TerminalID]
	ts.mu.Unlock()
	if !ok {
		return nil, &jsonrpc.Error{Code: schema.CodeInvalidParams, Message: fmt.Sprintf("unknown terminal %q: it was released or never created", p.TerminalID)}
	}
	return t, nil
}

// waitForExit answers terminal/wait_for_exit when the command exits, or -32800 when the agent
// cancels the request ($/cancel_request, see CancelWait).
func (ts *Set) waitForExit(req *jsonrpc.Request) {
	t, err := ts.lookup(req.Method, req.Params)
	if err != nil {
		req.Reply(nil, err)
		return
	}
	key := string(bytes.TrimSpace(req.ID))
	cancel := make(chan struct{})
	ts.mu.Lock()
	if len(ts.waits) >= MaxWaits { // each parks a goroutine until the exit
		ts.mu.Unlock()
		req.Reply(nil, &jsonrpc.Error{Code: schema.CodeInternalError, Message: fmt.Sprintf(
			"agentdesk is busy: %d terminal/wait_for_exit requests of this session are waiting; send it again once some are answered", MaxWaits)})
		return
	}
	ts.waits[key] = cancel
	ts.mu.Unlock()
	waiting := ts.spawn(func() {
		select {
		case <-t.exited:
			req.Reply(t.output().ExitStatus, nil)
		case <-cancel:
			req.Reply(nil, &jsonrpc.Error{Code: schema.CodeRequestCancelled, Message: "terminal/wait_for_exit was cancelled"})
		}
		ts.mu.Lock()
		if ts.waits[key] == cancel {
			delete(ts.waits, key)
		}
		ts.mu.Unlock()
	})
	if !waiting {
		req.Reply(nil, errClosing)
	}
}

// CancelWait cancels the pending terminal/wait_for_exit with JSON-RPC id (trimmed raw JSON) and
// reports whether there was one.
func (ts *Set) CancelWait(id string) bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	cancel, ok := ts.waits[id]
	if ok {
		delete(ts.waits, id)
		close(cancel)
	}
	return ok
}

// CloseAll kills every terminal and returns when all of them, and every request about them, are
// done; their last views have been published. Later creates fail.
func (ts *Set) CloseAll() {
	ts.mu.Lock()
	ts.closed = true
	open := make([]*Terminal, 0, len(ts.byID))
	for _, t := range ts.byID {
		open = append(open, t)
	}
	ts.byID = map[string]*Terminal{}
	ts.mu.Unlock()
	for _, t := range open {
		t.kill()
	}
	for _, t := range open {
		t.stop()
	}
	ts.wg.Wait()
}
