package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"agentdesk/backend/acp/attach"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// Steering: delivering a queued prompt into the running turn rather than after it. ACP has no
// stable method for it; agents offer one of two extensions (docs/acp.md, "Steering"):
//
//   - _session/steering (claude-agent-acp, codex-acp, pi-acp), advertised as
//     InitializeResponse._meta.steering.supported (some agents put it in
//     agentCapabilities._meta.steering instead, with supported or modes ["steer"]). A request
//     {sessionId, prompt, _meta: {steering: {idleBehavior: "promptRequired"}}} is answered
//     {outcome: injected | startedNewTurn | promptRequired | failed}; promptRequired (the turn
//     had ended: the agent did not take the prompt) leaves it queued, to go next.
//   - promptQueueing (older Claude adapters: agentCapabilities._meta.claudeCode.promptQueueing):
//     a second session/prompt sent while one runs is taken into the running turn; the agent
//     answers the earlier prompt end_turn once it takes the new one, and the turn goes on under
//     the new prompt's call. The session keeps the turn running until the last of them answers.
//
// Either way the transcript shows the prompt as a user entry of the running turn marked
// Steered, once the agent has it (the start of the agent's reply to it may come just before),
// and the turn does not end before each steer is settled. A prompt the agent did not take stays
// queued: typed text is never lost.

// steerDesk is the running turn's steers: the prompts steered into it, in the order sent (a
// prompt queueing agent's session/prompt calls and _session/steering requests), which the turn
// waits for before it ends (runTurn), with the answer to the last prompt; and whether the turn
// is ending, after which no steer joins it (the prompt stays queued and goes next). Guarded by
// Session.mu; its methods neither emit nor call the agent. Both belong to the running turn:
// empty and false unless turnActive (session_state.go).
type steerDesk struct {
	chained []*chainedPrompt
	ending  bool
}

// chainedPrompt is a steer of the running turn. For a steered session/prompt (prompt), ready is
// closed once its call is written (p) or failed to be (err); for a _session/steering request,
// once it has been answered and its outcome shown.
type chainedPrompt struct {
	ready  chan struct{}
	prompt bool
	p      *jsonrpc.Pending
	err    error
}

// join adds a steer to the running turn, which then ends only once the steer's ready is closed.
func (d *steerDesk) join(prompt bool) *chainedPrompt {
	c := &chainedPrompt{ready: make(chan struct{}), prompt: prompt}
	d.chained = append(d.chained, c)
	return c
}

// next returns the running turn's next steer to wait for, or nil when there is none: the turn
// is then ending, and no steer joins it any more.
func (d *steerDesk) next() *chainedPrompt {
	if len(d.chained) == 0 {
		d.ending = true
		return nil
	}
	c := d.chained[0]
	d.chained = d.chained[1:]
	return c
}

// turnOver clears the ending mark: a turn starts, or the ending one is over (its goroutine took
// every steer first).
func (d *steerDesk) turnOver() { d.ending = false }

// MethodSessionSteering is the steering extension's request.
const MethodSessionSteering = "_session/steering"

// steerMode is how the agent takes a prompt into a running turn.
type steerMode int

const (
	steerNone           steerMode = iota
	steerExtension                // _session/steering
	steerPromptQueueing           // a concurrent session/prompt
)

// Steering errors.
var (
	// ErrCannotSteer: Steer on a session whose agent offers no way to steer a running turn.
	ErrCannotSteer = errors.New("the agent cannot take a prompt into a running turn")
	// ErrNoTurn: Steer while no turn runs (or the running one is being stopped).
	ErrNoTurn = errors.New("no turn is running")
)

// SteerRefusedError: the agent answered a steer with an outcome other than taking the prompt
// (failed, or one we do not know). The prompt stays queued.
type SteerRefusedError struct {
	Agent   string
	Outcome string
}

var _ error = (*SteerRefusedError)(nil)

func (e *SteerRefusedError) Error() string {
	return fmt.Sprintf("%s did not take the prompt into its turn (outcome %q)", e.Agent, e.Outcome)
}

// steeringParams is the _session/steering request. Meta asks the agent not to start a turn of
// its own with the prompt when none runs: ours would then be the second.
type steeringParams struct {
	SessionID string                `json:"sessionId"`
	Prompt    []schema.ContentBlock `json:"prompt"`
	Meta      json.RawMessage       `json:"_meta,omitempty"`
}

var steeringIdleMeta = json.RawMessage(`{"steering":{"idleBehavior":"promptRequired"}}`)

// steeringResult is its answer.
type steeringResult struct {
	Outcome string `json:"outcome"`
}

// delivered reports an answer saying the agent took the prompt.
func (r steeringResult) delivered() bool {
	return r.Outcome == outcomeInjected || r.Outcome == outcomeStartedNewTurn
}

// Steering outcomes.
const (
	outcomeInjected       = "injected"
	outcomeStartedNewTurn = "startedNewTurn"
	outcomePromptRequired = "promptRequired"
)

// steerMode reads how the agent steers from both places agents advertise it.
func (r InitializeResult) steerMode() steerMode {
	if steeringMeta(r.Meta) || steeringMeta(r.AgentCapabilities.Meta) {
		return steerExtension
	}
	var m struct {
		PromptQueueing bool `json:"promptQueueing"`
		ClaudeCode     struct {
			PromptQueueing bool `json:"promptQueueing"`
		} `json:"claudeCode"`
	}
	if json.Unmarshal(r.AgentCapabilities.Meta, &m) == nil && (m.PromptQueueing || m.ClaudeCode.PromptQueueing) {
		return steerPromptQueueing
	}
	return steerNone
}

// steeringMeta reports a _meta object advertising _session/steering: steering.supported true,
// or steering.modes holding "steer" (a queue-only advertisement is no steering).
func steeringMeta(raw json.RawMessage) bool {
	var m struct {
		Steering *struct {
			Supported bool     `json:"supported"`
			Modes     []string `json:"modes"`
		} `json:"steering"`
	}
	if len(bytes.TrimSpace(raw)) == 0 || json.Unmarshal(raw, &m) != nil || m.Steering == nil {
		return false
	}
	for _, mode := range m.Steering.Modes {
		if mode == "steer" {
			return true
		}
	}
	return m.Steering.Supported
}

// Steer delivers queued prompt id into the running turn. It returns true once the agent has
// it (the prompt leaves the queue and shows in the transcript as a steered user entry), and
// false with no error when the turn ended first: the prompt stays queued and is sent as the
// next turn. It waits for the agent's answer to _session/steering (bounded by ctx), never
// holding the session. Errors, the prompt staying queued: ErrNotQueued, ErrCannotSteer, ErrNoTurn,
// ErrSteering (a steer of it is already on its way), *SteerRefusedError, or the agent's failure.
func (s *Session) Steer(ctx context.Context, id string) (bool, error) {
	s.mu.Lock()
	i := s.queue.find(id)
	var err error
	switch {
	case i < 0:
		err = ErrNotQueued
	case s.caps.steer == steerNone:
		err = ErrCannotSteer
	case s.queue.items[i].steering:
		err = ErrSteering
	case s.closing || !s.turnActive || s.state != StateRunning:
		err = ErrNoTurn
	}
	if err != nil {
		s.unlock()
		return false, fmt.Errorf("steer queued prompt %s: %w", id, err)
	}
	if s.steers.ending { // the turn is ending: the prompt goes next anyway
		s.unlock()
		return false, nil
	}
	if s.caps.steer == steerPromptQueueing {
		return s.steerByPromptLocked(i)
	}
	it := s.queue.items[i]
	it.steering = true
	slot := s.steers.join(false) // the turn ends only once this steer is settled
	conn, params := s.conn, steeringParams{SessionID: s.agentSessionID, Prompt: promptBlocks(it.Text, it.extra), Meta: steeringIdleMeta}
	s.unlock()

	var res steeringResult
	err = conn.Call(ctx, MethodSessionSteering, params, &res)
	s.mu.Lock()
	it.steering = false
	delivered := err == nil && res.delivered()
	if delivered {
		if j := s.queue.find(id); j >= 0 {
			s.queue.remove(j)
			s.pushQueueLocked()
		}
		s.pushChange(s.tr.addSteered(it.Text, it.Attachments))
	}
	s.unlock()
	close(slot.ready) // the turn may end now; an undelivered prompt is sent after it (endTurn)
	switch {
	case err != nil:
		return false, fmt.Errorf("steer a prompt into %s's turn: %w", s.cfg.AgentName, s.explain(err))
	case delivered:
		return true, nil
	case res.Outcome == outcomePromptRequired:
		return false, nil
	}
	return false, &SteerRefusedError{Agent: s.cfg.AgentName, Outcome: res.Outcome}
}

// steerByPromptLocked steers queued prompt i into the running turn of a prompt queueing agent:
// a second session/prompt, whose answer the turn then waits for (runTurn). The caller holds
// s.mu, with a turn running that is not ending; it is released here.
func (s *Session) steerByPromptLocked(i int) (bool, error) {
	it := s.queue.remove(i)
	s.pushQueueLocked()
	slot := s.steers.join(true)
	conn, params, turn := s.conn, schema.PromptParams{SessionID: s.agentSessionID, Prompt: promptBlocks(it.Text, it.extra)}, s.tr.Turn()
	s.unlock()

	slot.p, slot.err = conn.Start(schema.MethodSessionPrompt, params)
	close(slot.ready)
	s.mu.Lock()
	if slot.err != nil {
		// Not sent: back to the head of the queue (held too if the agent is gone meanwhile).
		it.Held = s.state == StateExited || s.state == StateFailed
		s.queue.putFirst(it)
		s.pushQueueLocked()
		s.unlock()
		return false, fmt.Errorf("steer a prompt into %s's turn: %w", s.cfg.AgentName, s.explain(slot.err))
	}
	s.pushChange(s.tr.addSteered(it.Text, it.Attachments))
	// A Stop since the first prompt was cancelled before this one was on the wire.
	cancel := s.state == StateCancelling && s.tr.Turn() == turn
	id := s.agentSessionID
	s.unlock()
	if cancel {
		if err := conn.Notify(schema.MethodSessionCancel, schema.CancelParams{SessionID: id}); err != nil {
			s.cfg.Logf("session %s: send cancel to %s: %v", s.cfg.ID, s.cfg.AgentName, err)
		}
	}
	return true, nil
}

// nextChained returns the running turn's next steered prompt to wait for, or nil when there is
// none: the turn is then ending, and no steer joins it any more (runTurn).
func (s *Session) nextChained() *chainedPrompt {
	s.mu.Lock()
	defer s.unlock()
	return s.steers.next()
}

// addSteered appends a user entry to the current turn for a prompt steered into it.
func (t *Transcript) addSteered(text string, attachments []attach.Info) Change {
	t.open = ""
	return t.add(&Entry{Kind: KindUser, Text: text, Attachments: attachments, Steered: true})
}
