package acp

import (
	"bytes"
	"encoding/json"

	"agentdesk/backend/acp/jsonrpc"
)

// connHandler is the jsonrpc.Handler of one agent connection: the session's, plus what that connection's
// agent has been given: its terminals, the session folder opened for its fs/* requests, and the
// workers that run those requests and terminal/create off the inbound loop, a bounded number at
// a time (see workers). They belong to the agent process: when the connection ends the terminals
// are killed, waiting requests are answered, and a restarted agent starts afresh (see end).
type connHandler struct {
	*Session
	terms     *terminals
	work      *workers
	folder    *Folder // nil when the folder could not be opened: folderErr says why
	folderErr error
}

var _ jsonrpc.Handler = (*connHandler)(nil)

// newConnHandler prepares the handler of a new connection to tr.
func (s *Session) newConnHandler(tr Transport) *connHandler {
	h := &connHandler{Session: s, terms: s.newTerminals(tr), work: newWorkers()}
	h.folder, h.folderErr = NewFolder(s.cfg.Cwd)
	return h
}

// HandleRequest serves fs/* and terminal/* requests and leaves the rest to the session. Those
// that do I/O or start a process go to the workers; the others answer at once.
func (h *connHandler) HandleRequest(req *jsonrpc.Request) {
	switch req.Method {
	case MethodReadTextFile, MethodWriteTextFile:
		h.work.submit(req, func() (any, error) { return h.serveFile(req) })
	case MethodTerminalCreate:
		h.work.submit(req, func() (any, error) {
			h.hook(req.Method)
			return h.terms.create(req.Params)
		})
	case MethodTerminalOutput, MethodTerminalWaitForExit, MethodTerminalKill, MethodTerminalRelease:
		h.terms.handle(req)
	default:
		h.Session.HandleRequest(req)
	}
}

// HandleNotification answers a $/cancel_request for a pending terminal/wait_for_exit (-32800)
// and leaves the rest to the session.
func (h *connHandler) HandleNotification(method string, params json.RawMessage) {
	if method == MethodCancelRequest {
		var p jsonrpc.CancelRequestParams
		if json.Unmarshal(params, &p) == nil && h.terms.cancelWait(string(bytes.TrimSpace(p.RequestID))) {
			return
		}
	}
	h.Session.HandleNotification(method, params)
}

// serveFile answers an fs/* request inside the session folder; it runs on a worker.
func (h *connHandler) serveFile(req *jsonrpc.Request) (any, error) {
	h.hook(req.Method)
	if h.folder == nil {
		return nil, h.folderErr
	}
	if req.Method == MethodReadTextFile {
		return h.folder.ReadTextFile(req.Params)
	}
	return h.folder.WriteTextFile(req.Params)
}

// hook lets a test hold a worker (Config.serveHook).
func (h *connHandler) hook(method string) {
	if h.cfg.serveHook != nil {
		h.cfg.serveHook(method)
	}
}

// end waits for the connection to end, then answers what waits for a worker, kills the
// terminals, releases the folder once no request uses it, and closes done when all that is over
// and watched (the connection's watch) is closed. The terminals' last output is published before.
func (h *connHandler) end(conn *jsonrpc.Conn, watched <-chan struct{}, done chan<- struct{}) {
	<-conn.Done()
	h.work.wait()
	h.terms.closeAll()
	if h.folder != nil {
		h.folder.Close()
	}
	<-watched
	close(done)
}
