package acp

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"strings"
	"time"

	"agentdesk/backend/acp/attach"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/receipt"
	"agentdesk/backend/acp/schema"
)

// Prompt sends text as a turn, like PromptWith without attachments.
func (s *Session) Prompt(text string) (int, error) { return s.PromptWith(text, nil) }

// PromptWith starts a turn with text and attachments and returns its number at once; the turn
// ends with a turn_end event. During a turn (running or cancelling) the prompt is queued instead
// and PromptWith returns 0: it is sent as a turn of its own when the turns before it have ended
// (session_queue.go; Submit says which happened). Each attachment becomes a content block the
// agent accepts: a file of the session folder is embedded when the agent accepts embedded
// context and it is small text, else linked; an image needs the agent's image capability. A
// file outside the folder, an image the agent does not accept or one that is too large fails
// the call (*attach.Error) and nothing is sent or queued. Attachments are read now, also for a
// prompt that is queued. Other errors: ErrBusy while the session starts, ErrClosed, and
// *StateError (ErrEnded) once the agent has exited or failed.
func (s *Session) PromptWith(text string, attachments []attach.Attachment) (int, error) {
	sub, err := s.Submit(text, attachments)
	return sub.Turn, err
}

// Submitted says what Submit did with a prompt: started turn Turn, or queued it as QueuedID.
type Submitted struct {
	Turn     int
	QueuedID string
}

// Submit starts a turn with text and attachments when the session is idle, or queues them
// during a turn; see PromptWith for the rest of its contract.
func (s *Session) Submit(text string, attachments []attach.Attachment) (Submitted, error) {
	s.mu.Lock()
	err := s.submitErrLocked()
	caps := s.caps.PromptCapabilities
	allowed := maps.Clone(s.allowedFiles)
	s.unlock()
	if err != nil {
		return Submitted{}, err
	}
	extra, infos, err := attach.Build(s.cfg.Cwd, s.cfg.Dirs, allowed, s.cfg.AgentName, caps, attachments) // file I/O: no lock held
	if err != nil {
		return Submitted{}, err
	}
	s.mu.Lock()
	if err := s.submitErrLocked(); err != nil {
		s.unlock()
		return Submitted{}, err
	}
	if s.turnActive {
		id, err := s.queue.add(text, extra, infos)
		if err == nil {
			s.pushQueueLocked()
		}
		s.unlock()
		return Submitted{QueuedID: id}, err
	}
	run := s.startTurnLocked(text, extra, infos)
	s.unlock()
	go s.runTurn(run)
	return Submitted{Turn: run.turn}, nil
}

// submitErrLocked says why a prompt can be neither sent nor queued now: nil when the session
// is idle or in a turn.
func (s *Session) submitErrLocked() error {
	if !s.closing && s.turnActive {
		return nil
	}
	return s.idleErrLocked()
}

// turnRun is what a turn's goroutine (runTurn) needs, taken under s.mu by startTurnLocked.
type turnRun struct {
	conn   *jsonrpc.Conn
	turn   int
	params schema.PromptParams
}

// startTurnLocked moves the idle session into a new turn with the person's text and the
// attachments' blocks, and returns what runTurn (to be started by the caller once it has
// unlocked s.mu) sends. The caller holds s.mu, with the session idle and not closing.
func (s *Session) startTurnLocked(text string, extra []schema.ContentBlock, infos []attach.Info) turnRun {
	blocks := promptBlocks(text, extra)
	turn := s.tr.Turn() + 1
	s.pushChange(s.tr.StartTurn(turn, text, infos...))
	s.turnActive = true
	s.clearSuggestionsLocked()
	s.draft = receipt.NewDraft(s.cost)
	s.setStateLocked(StateRunning, "")
	if s.pendingSummary != "" {
		// The saved turns' summary goes first, once: the user entry shows only what was typed.
		blocks = append([]schema.ContentBlock{schema.TextBlock(s.pendingSummary)}, blocks...)
		s.pendingSummary = ""
	}
	s.promptSent = false
	s.steers.turnOver()
	s.turnWG.Add(1) // under s.mu with closing false: Close's Wait comes after every Add
	return turnRun{conn: s.conn, turn: turn, params: schema.PromptParams{SessionID: s.agentSessionID, Prompt: blocks}}
}

// promptBlocks is a prompt's content: the text (left out only when there are attachments and
// no text), then the attachments' blocks.
func promptBlocks(text string, extra []schema.ContentBlock) []schema.ContentBlock {
	blocks := make([]schema.ContentBlock, 0, 1+len(extra))
	if text != "" || len(extra) == 0 {
		blocks = append(blocks, schema.TextBlock(text))
	}
	return append(blocks, extra...)
}

// runTurn sends a turn's session/prompt and ends the turn with the answer; it runs on a
// goroutine of its own from Submit or from the queue. Steers (session_steer.go) are part of the
// turn: it ends only once each has been answered (so a steered entry never lands after the
// turn's end), and a prompt queueing agent's turn ends with the answer to its last prompt.
func (s *Session) runTurn(run turnRun) {
	defer s.turnWG.Done()
	conn, turn := run.conn, run.turn
	began := s.turnBegun(turn)
	var res schema.PromptResult
	p, err := conn.Start(schema.MethodSessionPrompt, run.params)
	// A Stop before the prompt was on the wire left the cancel to us (see Stop): it must follow
	// the prompt, or the agent would cancel nothing and run the whole turn.
	s.mu.Lock()
	s.promptSent = true
	cancel := err == nil && s.state == StateCancelling && s.tr.Turn() == turn
	id := s.agentSessionID
	s.unlock()
	if cancel {
		if cerr := conn.Notify(schema.MethodSessionCancel, schema.CancelParams{SessionID: id}); cerr != nil {
			s.cfg.Logf("session %s: send cancel to %s: %v", s.cfg.ID, s.cfg.AgentName, cerr)
		}
	}
	for {
		if err == nil && p != nil {
			// No deadline and never cancelled by context: Stop sends session/cancel instead.
			err = p.Wait(context.Background(), &res)
		}
		next := s.nextChained()
		if next == nil {
			break
		}
		<-next.ready
		if !next.prompt {
			p = nil // a steering request: answered, and its entry shown; nothing more to wait for
			continue
		}
		if err != nil {
			s.cfg.Logf("session %s: a prompt before a steered one failed: %v", s.cfg.ID, err)
		}
		p, err, res = next.p, next.err, schema.PromptResult{}
	}
	s.endTurn(turn, res, err, turnEnd{began: began, changes: s.turnChanges(turn)})
}

// turnEnd is what runTurn learnt of a turn besides the agent's answer: for its receipt.
type turnEnd struct {
	began   time.Time
	changes *schema.TurnChanges
}

// endTurn records the reply to a turn's prompt (or its failure) and returns to idle; then the
// next queued prompt, if any, starts the next turn (nextQueuedLocked).
func (s *Session) endTurn(turn int, res schema.PromptResult, err error, te turnEnd) {
	if err != nil {
		err = s.explain(err)
	}
	s.mu.Lock()
	hard, tr := s.hardStopped, s.transport
	s.unlock()
	killed := "" // unknown: the hard stop came as the turn ended
	if hard && tr != nil {
		killed = killedWords(tr) // the words of a hard stop are true (issue 29)
	}
	s.mu.Lock()
	err = s.asAuthRequired(err, s.authMethods) // the Claude adapter asks for a login only on prompt
	s.loginNeeded = nil
	if authErr := (*AuthRequiredError)(nil); errors.As(err, &authErr) {
		s.loginNeeded = authErr
	}
	ts := TurnSummary{Turn: turn, StopReason: res.StopReason}
	cancelling := s.state == StateCancelling
	s.ladder.disarm()
	switch {
	case s.hardStopped && killed == "":
		ts.StopReason, ts.Message = schema.StopInterrupted, "stopped hard as the turn ended"
	case s.hardStopped && s.ladder.ignoredMsg != "":
		s.ladder.ignoredMsg += " (" + killed + ")"
		ts.StopReason, ts.Message = schema.StopInterrupted, s.ladder.ignoredMsg
	case s.hardStopped:
		ts.StopReason, ts.Message = schema.StopInterrupted, "stopped hard: "+strings.Replace(killed, "its ", "the agent's ", 1)
	case cancelling:
		// A turn the user stopped is cancelled whatever the agent answered; its answer is journaled.
		ts.StopReason = schema.StopCancelled
	case err != nil:
		ts.StopReason, ts.Message = schema.StopError, err.Error()
		var data json.RawMessage
		var rpcErr *jsonrpc.Error
		if errors.As(err, &rpcErr) {
			data = rpcErr.Data
		}
		s.pushChange(s.tr.AddError(err.Error(), data, s.transport.StderrTail()))
	case ts.StopReason == "":
		ts.StopReason = schema.StopEndTurn
	}
	// No card stays "pending" under a finished turn (docs/acp.md): after Stop the calls
	// that came late are cancelled too; otherwise the agent left them open.
	open := StatusIncomplete
	if ts.StopReason == schema.StopCancelled || ts.StopReason == schema.StopInterrupted {
		open = StatusCancelled
	}
	for _, c := range s.tr.CloseOpenTools(open) {
		s.pushChange(c)
	}
	reqs := s.takePermissionsLocked()
	ts.Receipt = s.receiptLocked(ts, te, res)
	s.turns = append(s.turns, ts)
	s.steers.turnOver()
	s.turnActive = false
	s.pushEvent(Event{Kind: EventTurnEnd, Turn: turn, StopReason: ts.StopReason, Message: ts.Message, Receipt: ts.Receipt.Clone()})
	if s.conn.Err() != nil {
		s.setStateLocked(StateExited, s.exitMessage(false))
	} else {
		s.setStateLocked(StateIdle, "")
	}
	s.ladder.ignoredMsg = ""
	next, ok := s.nextQueuedLocked()
	s.unlock()
	replyCancelled(reqs)
	if ok {
		go s.runTurn(next)
	}
}
