package acp

import (
	"bytes"
	"encoding/json"

	"agentdesk/backend/acp/fsys"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
	"agentdesk/backend/acp/terminal"
)

// connHandler is the jsonrpc.Handler of one agent connection: the one seam through which the
// agent's messages reach the session. It routes each to what serves it: session/update and
// permission requests to the session, fs/* and terminal/* to what that connection's agent has
// been given: its terminals, the session folder opened for its fs/* requests, and the workers
// that run those requests and terminal/create off the inbound loop, a bounded number at a time
// (see workers). Those belong to the agent process: when the connection ends the terminals are
// killed, waiting requests are answered, and a restarted agent starts afresh (see end).
//
// Every method runs on the connection's inbound loop, in wire order, and never blocks: a
// request that waits (a person, the disk, a process) is answered from another goroutine, and an
// answer only queues for the connection's writer, even when the agent reads none (see
// jsonrpc.MaxQueuedMessages).
type connHandler struct {
	s         *Session
	terms     *terminal.Set
	work      *workers
	folder    *fsys.Folders // nil when a folder could not be opened: folderErr says why
	folderErr error
}

var _ jsonrpc.Handler = (*connHandler)(nil)

// newConnHandler prepares the handler of a new connection to tr.
func (s *Session) newConnHandler(tr Transport) *connHandler {
	h := &connHandler{s: s, terms: s.newTerminals(tr), work: newWorkers()}
	h.folder, h.folderErr = fsys.NewFolders(s.cfg.Cwd, s.cfg.Dirs)
	return h
}

// HandleRequest implements jsonrpc.Handler. Requests that do I/O or start a process go to the
// workers; a permission request is parked until answered; the others are answered at once,
// those for capabilities we do not advertise with -32601.
func (h *connHandler) HandleRequest(req *jsonrpc.Request) {
	if req.Method != MethodElicitationCreate && h.s.refuseUnknownSession(req) {
		return // only this session's and its announced children's requests are served (an elicitation says why itself)
	}
	switch req.Method {
	case schema.MethodReadTextFile, schema.MethodWriteTextFile:
		h.work.submit(req, func() (any, error) { return h.serveFile(req) })
	case schema.MethodTerminalCreate:
		h.work.submit(req, func() (any, error) {
			h.hook(req.Method)
			return h.terms.Create(req.Params)
		})
	case schema.MethodTerminalOutput, schema.MethodTerminalWaitForExit, schema.MethodTerminalKill, schema.MethodTerminalRelease:
		h.terms.Handle(req)
	case schema.MethodRequestPermission:
		h.s.handlePermission(req)
	case MethodElicitationCreate:
		h.s.handleElicitation(req)
	default:
		req.Reply(nil, &jsonrpc.Error{Code: schema.CodeMethodNotFound, Message: "Method not found: " + req.Method})
	}
}

// HandleNotification implements jsonrpc.Handler: session/update goes into the transcript, and
// $/cancel_request answers the pending terminal/wait_for_exit (-32800) or permission request
// (cancelled) it names.
func (h *connHandler) HandleNotification(method string, params json.RawMessage) {
	switch method {
	case schema.MethodSessionUpdate:
		h.s.applyUpdate(params)
	case schema.MethodCancelRequest:
		var p jsonrpc.CancelRequestParams
		if json.Unmarshal(params, &p) != nil {
			return
		}
		id := string(bytes.TrimSpace(p.RequestID))
		if !h.terms.CancelWait(id) && !h.s.withdrawElicitation(id) {
			h.s.cancelPermission(id)
		}
	case MethodElicitationComplete:
		h.s.completeElicitation(params)
	case MethodClaudeSDKMessage:
		h.s.suggest(params)
	case MethodAuthStatusUpdate, MethodAuthStatusClaude:
		h.s.authStatusUpdate(method, params)
	default:
		h.s.cfg.Logf("%s: ignored notification %q", h.s.cfg.AgentName, method)
	}
}

// serveFile answers an fs/* request inside the session folder; it runs on a worker.
func (h *connHandler) serveFile(req *jsonrpc.Request) (any, error) {
	h.hook(req.Method)
	if h.folder == nil {
		return nil, h.folderErr
	}
	if req.Method == schema.MethodReadTextFile {
		h.s.mu.Lock()
		q := quirksOf(h.s.agentInfo)
		h.s.mu.Unlock()
		return q.bendRead(h.folder.ReadTextFile(req.Params))
	}
	return h.folder.WriteTextFile(req.Params)
}

// hook lets a test hold a worker (Config.serveHook).
func (h *connHandler) hook(method string) {
	if h.s.cfg.serveHook != nil {
		h.s.cfg.serveHook(method)
	}
}

// end waits for the connection to end, then answers what waits for a worker, kills the
// terminals, releases the folder once no request uses it, and closes done when all that is over
// and watched (the connection's watch) is closed. The terminals' last output is published before.
func (h *connHandler) end(conn *jsonrpc.Conn, watched <-chan struct{}, done chan<- struct{}) {
	<-conn.Done()
	h.work.wait()
	h.terms.CloseAll()
	if h.folder != nil {
		h.folder.Close()
	}
	<-watched
	close(done)
}

// applyUpdate reduces one session/update into the transcript and queues its events.
func (s *Session) applyUpdate(params json.RawMessage) {
	s.mu.Lock()
	defer s.unlock()
	s.applyUpdateLocked(params)
}

// MaxEarlyUpdates and MaxEarlyBytes bound the session/update params kept while session/new has
// not answered (agents announce their commands and settings then; a few, not thousands).
// Updates beyond either bound are dropped, and the drop is logged when session/new answers.
const (
	MaxEarlyUpdates = 1024
	MaxEarlyBytes   = 16 << 20
)

// applyUpdateLocked reduces one session/update into the transcript and queues its events.
// Updates for a session id we do not know yet (session/new has not returned) are kept in order
// and applied when it does.
func (s *Session) applyUpdateLocked(params json.RawMessage) {
	if s.agentSessionID == "" {
		// Bounded: an agent that streams without ever answering session/new must not grow
		// agentdesk's memory without limit. What is beyond the bound is dropped and counted.
		if len(s.early) >= MaxEarlyUpdates || s.earlyBytes+len(params) > MaxEarlyBytes {
			s.earlyDropped++
			return
		}
		s.early = append(s.early, params)
		s.earlyBytes += len(params)
		return
	}
	sessionID, u, err := schema.DecodeNotification(params)
	if err != nil && u.Raw == nil {
		s.cfg.Logf("%s: skipped a session/update that does not decode: %v", s.cfg.AgentName, err)
		return
	}
	if err != nil {
		// A known kind with fields of the wrong shape: show it raw rather than lose it.
		u = schema.Update{Kind: "invalid " + u.Kind, Raw: u.Raw} // never typed: rendered as unknown
		s.cfg.Logf("%s: %v", s.cfg.AgentName, err)
	}
	if sessionID != s.agentSessionID {
		// A child the agent announced gets its own updates (session_subagents.go); any other id
		// is refused.
		if c := s.subagentFor(sessionID); c != nil {
			s.applySubagentUpdateLocked(c, u)
			return
		}
		s.cfg.Logf("%s: skipped a session/update for unknown session %q", s.cfg.AgentName, cutText(sessionID, maxSubagentID))
		return
	}
	if u.Kind == UpdateSubagent && !s.replaying {
		s.subagentUpdateLocked(nil, u)
		return
	}
	if u.IsMetadata() {
		s.applyMetaLocked(u)
		return
	}
	if s.replaying {
		// session/load replays history we already show (and keep): it is folded apart, to be
		// matched when the agent answers (continuedLocked); a replay during session/resume is
		// dropped. The journal has it either way.
		if s.replay != nil {
			s.replay.add(u, len(params))
		}
		return
	}
	for _, c := range s.tr.Apply(u) {
		s.pushChange(c)
		if u.ToolCall != nil && c.Entry != nil {
			s.toolCardLocked(c.Entry.ID)
		}
	}
	s.costLocked(u.Usage)
}

// cancelPermission answers the parked permission request with JSON-RPC id (trimmed raw JSON)
// "cancelled": the agent withdrew it ($/cancel_request). Nothing happens when none is open.
func (s *Session) cancelPermission(id string) {
	s.mu.Lock()
	perm, ok := s.perms.take(id)
	if ok {
		s.decisionLocked(perm, "cancelled", "", DecidedByCancel)
	}
	s.unlock()
	if ok {
		replyCancelled([]*jsonrpc.Request{perm.req})
	}
}
