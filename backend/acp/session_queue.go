package acp

import (
	"errors"
	"fmt"

	"agentdesk/backend/acp/attach"
	"agentdesk/backend/acp/schema"
)

// The prompt queue: what the person sends while a turn runs waits here, in order, and is sent
// as a turn of its own, one per turn, when the turn before it ends (endTurn, whatever its stop
// reason) — unless the agent is gone, the session is closing or the agent asked for a login.
// The queue is part of the session's visible state: each change is announced by one queue
// event carrying the whole queue, in the same hold of s.mu as the change (so a snapshot, which
// carries it too, is the fold of the events).
//
// Guarantees:
//   - Typed text is never lost: an item leaves the queue only when it is sent as a turn, steered
//     into one (session_steer.go), or removed by the person. When the agent exits or the start
//     fails, the items stay, marked held (not sent); they are not sent by themselves after a
//     Continue either: the person sends them (SendQueuedNow), edits or removes them.
//   - Order: items are sent in the order they were queued, except one the person moves ahead
//     with SendQueuedNow, and one being steered, which is skipped until the agent has answered.
//   - Attachments are read when the prompt is queued (the queue keeps their content blocks), so
//     a refused attachment fails at once, as for a prompt sent at once.
//
// Lock order and waits are the session's: everything here runs under s.mu and waits on nothing.

// MaxQueued is how many prompts may wait in one session's queue; Submit refuses more
// (ErrQueueFull).
const MaxQueued = 100

// Queue errors.
var (
	// ErrNotQueued: an operation on a queued prompt that is no longer queued (it was sent,
	// steered or removed meanwhile), or never was.
	ErrNotQueued = errors.New("the prompt is not queued")
	// ErrQueueFull: a prompt queued beyond MaxQueued.
	ErrQueueFull = errors.New("too many prompts are queued")
	// ErrSteering: an edit of a queued prompt whose steer into the running turn is on its way.
	ErrSteering = errors.New("the prompt is being delivered to the running turn")
	// ErrEmptyPrompt: a queued prompt edited to nothing (no text and no attachments).
	ErrEmptyPrompt = errors.New("the prompt is empty")
)

// QueuedPrompt is one queued prompt as the UI shows it (the queue event, the snapshot).
type QueuedPrompt struct {
	ID          string        `json:"id"`
	Text        string        `json:"text"`
	Attachments []attach.Info `json:"attachments,omitempty"`
	// Held: the agent exited or failed while it was queued; it was not sent and will not be
	// sent by itself (SendQueuedNow sends it).
	Held bool `json:"held,omitempty"`
}

// promptQueue is the session's queue; guarded by Session.mu. Its methods keep the queue's order
// and bound and neither emit nor start turns: the Session announces the queue (pushQueueLocked)
// after a change. The steers of the running turn are the steering desk's (session_steer.go).
type promptQueue struct {
	items []*queuedItem
	n     int // ids handed out
}

// queuedItem is a queued prompt with the content blocks of its attachments.
type queuedItem struct {
	QueuedPrompt
	extra    []schema.ContentBlock
	steering bool // a _session/steering request with it is on the wire
}

// Queue returns the prompts waiting to be sent, in order.
func (s *Session) Queue() []QueuedPrompt {
	s.mu.Lock()
	defer s.unlock()
	return s.queue.list()
}

// list is a copy of the queue, in order.
func (q *promptQueue) list() []QueuedPrompt {
	out := make([]QueuedPrompt, len(q.items))
	for i, it := range q.items {
		out[i] = it.QueuedPrompt
		out[i].Attachments = append([]attach.Info(nil), it.Attachments...)
	}
	return out
}

// add queues a prompt at the end and returns its id (ErrQueueFull beyond MaxQueued).
func (q *promptQueue) add(text string, extra []schema.ContentBlock, infos []attach.Info) (string, error) {
	if len(q.items) >= MaxQueued {
		return "", fmt.Errorf("queue a prompt: %w (at most %d)", ErrQueueFull, MaxQueued)
	}
	q.n++
	it := &queuedItem{QueuedPrompt: QueuedPrompt{ID: fmt.Sprintf("q%d", q.n), Text: text, Attachments: infos}, extra: extra}
	q.items = append(q.items, it)
	return it.ID, nil
}

// find returns the index of the queued prompt id, or -1.
func (q *promptQueue) find(id string) int {
	for i, it := range q.items {
		if it.ID == id {
			return i
		}
	}
	return -1
}

// remove takes the prompt at index i out of the queue and returns it.
func (q *promptQueue) remove(i int) *queuedItem {
	it := q.items[i]
	q.items = append(q.items[:i], q.items[i+1:]...)
	return it
}

// putFirst puts it at the head of the queue (it goes next).
func (q *promptQueue) putFirst(it *queuedItem) {
	q.items = append([]*queuedItem{it}, q.items...)
}

// hold marks every queued prompt held and reports whether any was not yet.
func (q *promptQueue) hold() bool {
	changed := false
	for _, it := range q.items {
		if !it.Held {
			it.Held, changed = true, true
		}
	}
	return changed
}

// pushQueueLocked announces the whole current queue.
func (s *Session) pushQueueLocked() {
	s.pushEvent(Event{Kind: EventQueue, Queue: s.queue.list()})
}

// EditQueued replaces the text of queued prompt id (its attachments stay). It fails with
// ErrNotQueued when the prompt was sent or removed meanwhile, ErrSteering while it is being
// steered, and ErrEmptyPrompt when neither text nor attachments would be left.
func (s *Session) EditQueued(id, text string) error {
	s.mu.Lock()
	defer s.unlock()
	i := s.queue.find(id)
	switch {
	case i < 0:
		return fmt.Errorf("edit queued prompt %s: %w", id, ErrNotQueued)
	case s.queue.items[i].steering:
		return fmt.Errorf("edit queued prompt %s: %w", id, ErrSteering)
	case text == "" && len(s.queue.items[i].extra) == 0:
		return fmt.Errorf("edit queued prompt %s: %w", id, ErrEmptyPrompt)
	}
	s.queue.items[i].Text = text
	s.pushQueueLocked()
	return nil
}

// RemoveQueued takes queued prompt id out of the queue unsent (ErrNotQueued when it is no
// longer there). One being steered is removed from the queue, but the agent may already have
// it: if it takes it, the transcript shows it steered.
func (s *Session) RemoveQueued(id string) error {
	s.mu.Lock()
	defer s.unlock()
	i := s.queue.find(id)
	if i < 0 {
		return fmt.Errorf("remove queued prompt %s: %w", id, ErrNotQueued)
	}
	s.queue.remove(i)
	s.pushQueueLocked()
	return nil
}

// SendQueuedNow sends queued prompt id as the next turn: at once when the session is idle
// (a held prompt included), else it moves to the head of the queue and the running turn is
// stopped (Stop), so it is sent when that turn ends. It fails with ErrNotQueued, ErrSteering,
// ErrClosed, ErrBusy while the session starts, and *StateError (ErrEnded) once the agent has
// exited: the prompt stays queued for after a Continue.
func (s *Session) SendQueuedNow(id string) error {
	s.mu.Lock()
	i := s.queue.find(id)
	if i < 0 {
		s.unlock()
		return fmt.Errorf("send queued prompt %s: %w", id, ErrNotQueued)
	}
	it := s.queue.items[i]
	if it.steering {
		s.unlock()
		return fmt.Errorf("send queued prompt %s: %w", id, ErrSteering)
	}
	if err := s.submitErrLocked(); err != nil {
		s.unlock()
		return fmt.Errorf("send queued prompt %s: %w", id, err)
	}
	s.queue.remove(i)
	if s.turnActive {
		it.Held = false
		s.queue.putFirst(it)
		s.pushQueueLocked()
		s.unlock()
		return s.Stop() // a no-op when cancelling already
	}
	s.pushQueueLocked()
	run := s.startTurnLocked(it.Text, it.extra, it.Attachments)
	s.unlock()
	go s.runTurn(run)
	return nil
}

// nextQueuedLocked starts the next queued prompt's turn when the turn that just ended leaves the
// session idle (endTurn); ok says whether it did, and the caller starts runTurn with run once
// it has unlocked s.mu. Held prompts and one being steered are skipped; nothing is sent while
// closing or when the agent asked for a login.
func (s *Session) nextQueuedLocked() (run turnRun, ok bool) {
	if s.state != StateIdle || s.closing || s.loginNeeded != nil {
		return turnRun{}, false
	}
	for i, it := range s.queue.items {
		if it.Held || it.steering {
			continue
		}
		s.queue.remove(i)
		s.pushQueueLocked()
		return s.startTurnLocked(it.Text, it.extra, it.Attachments), true
	}
	return turnRun{}, false
}

// holdQueueLocked marks every queued prompt held: the agent has exited or failed, and what
// was waiting for it was not sent. Called by setStateLocked on the move to exited or failed.
func (s *Session) holdQueueLocked() {
	if s.queue.hold() {
		s.pushQueueLocked()
	}
}
