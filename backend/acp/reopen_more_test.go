package acp_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// silentAgent answers initialize and never answers session/new.
type silentAgent struct{}

func (silentAgent) HandleNotification(string, json.RawMessage) {}
func (silentAgent) HandleRequest(req *jsonrpc.Request) {
	if req.Method == schema.MethodInitialize {
		req.Reply(map[string]any{"protocolVersion": 1}, nil)
	}
}

// passedDeadline is a context whose deadline (after from its making) "passes" when the test
// closes done: a timeout at a chosen moment, without a timer racing a slow machine.
type passedDeadline struct {
	deadline time.Time
	done     chan struct{}
}

func newPassedDeadline(after time.Duration) *passedDeadline {
	return &passedDeadline{deadline: time.Now().Add(after), done: make(chan struct{})}
}

func (c *passedDeadline) Deadline() (time.Time, bool) { return c.deadline, true }
func (c *passedDeadline) Done() <-chan struct{}       { return c.done }
func (c *passedDeadline) Value(any) any               { return nil }
func (c *passedDeadline) Err() error {
	select {
	case <-c.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}

func TestStartTimeoutSaysWhichMethod(t *testing.T) {
	for _, name := range []string{"timeout", "cancel"} {
		t.Run(name, func(t *testing.T) {
			ev := newEvents()
			asked := make(chan struct{})
			s := acp.NewSession(acp.Config{ID: "s1", AgentName: "Quiet", Cwd: "/p", Emitter: ev, Logf: t.Logf,
				Journal: func(dir jsonrpc.Direction, method string, _ []byte) {
					if method == schema.MethodSessionNew {
						close(asked)
					}
				},
				Launch: func(context.Context) (acp.Transport, error) {
					return acptest.ServeHandler(func(*jsonrpc.Conn) jsonrpc.Handler { return silentAgent{} }), nil
				}})
			defer s.Close()
			var ctx context.Context
			if name == "timeout" {
				pd := newPassedDeadline(2 * time.Minute)
				go func() { <-asked; close(pd.done) }()
				ctx = pd
			} else {
				c, cancel := context.WithCancel(context.Background())
				defer cancel()
				go func() { <-asked; cancel() }()
				ctx = c
			}
			err := s.Start(ctx)
			var timeout *acp.StartTimeoutError
			if name == "timeout" {
				if !errors.As(err, &timeout) || timeout.Method != schema.MethodSessionNew || timeout.Agent != "Quiet" || timeout.After != 2*time.Minute {
					t.Fatalf("Start = %#v, want a StartTimeoutError for session/new after 2 min", err)
				}
				if !errors.Is(err, context.DeadlineExceeded) || err.Error() != "Quiet did not answer session/new within 2 min" {
					t.Fatalf("error %q", err)
				}
			} else if !errors.Is(err, acp.ErrStartCancelled) {
				t.Fatalf("Start = %v, want ErrStartCancelled", err)
			}
			st := ev.waitFor(t, "failed", func(e acp.Event) bool { return e.Kind == acp.EventState && e.State == acp.StateFailed })
			if st.Message != err.Error() || strings.Contains(st.Message, "context") {
				t.Fatalf("failed state says %q, want %q", st.Message, err)
			}
		})
	}
}

func TestStartTimeoutErrorWords(t *testing.T) {
	for d, want := range map[time.Duration]string{2 * time.Minute: "2 min", 90 * time.Second: "90 s", 1500 * time.Millisecond: "1.5 s"} {
		e := &acp.StartTimeoutError{Agent: "A", Method: "initialize", After: d}
		if got := e.Error(); got != "A did not answer initialize within "+want {
			t.Errorf("%v: %q", d, got)
		}
	}
	if got := (&acp.StartTimeoutError{Agent: "A", After: time.Minute}).Error(); got != "A did not start within 1 min" {
		t.Errorf("launch: %q", got)
	}
}

// lateAgent answers a prompt with a tool call it leaves open and ends the turn; when told (late)
// it updates the call: still in progress, with a new title.
type lateAgent struct {
	conn *jsonrpc.Conn
	late chan struct{}
}

func (a *lateAgent) HandleNotification(string, json.RawMessage) {}
func (a *lateAgent) HandleRequest(req *jsonrpc.Request) {
	up := func(u string) {
		_ = a.conn.Notify(schema.MethodSessionUpdate, map[string]any{"sessionId": "l1", "update": json.RawMessage(u)})
	}
	switch req.Method {
	case schema.MethodInitialize:
		req.Reply(map[string]any{"protocolVersion": 1}, nil)
	case schema.MethodSessionNew:
		req.Reply(map[string]any{"sessionId": "l1"}, nil)
	case schema.MethodSessionPrompt:
		up(`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Run tests","status":"pending"}`)
		req.Reply(schema.PromptResult{StopReason: schema.StopEndTurn}, nil)
		go func() {
			<-a.late
			up(`{"sessionUpdate":"tool_call_update","toolCallId":"c1","title":"Run tests (late)","status":"in_progress"}`)
		}()
	}
}

func TestLateToolUpdateDoesNotReopenEndedTurn(t *testing.T) {
	ev := newEvents()
	late := make(chan struct{})
	s := acp.NewSession(acp.Config{ID: "s1", AgentName: "Late", Cwd: "/p", Emitter: ev, Logf: t.Logf,
		Launch: func(context.Context) (acp.Transport, error) {
			return acptest.ServeHandler(func(conn *jsonrpc.Conn) jsonrpc.Handler { return &lateAgent{conn: conn, late: late} }), nil
		}})
	defer s.Close()
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	close(late)
	got := ev.waitFor(t, "the late update", func(e acp.Event) bool {
		return e.Kind == acp.EventEntry && e.Entry.Title == "Run tests (late)"
	})
	if got.Entry.Status != acp.StatusIncomplete {
		t.Fatalf("a late update reopened the card of an ended turn: %+v", got.Entry)
	}
}

func TestSnapshotKeepsDecisions(t *testing.T) {
	s, ev := startDemo(t, 0)
	if _, err := s.Prompt("hello"); err != nil {
		t.Fatal(err)
	}
	p := answerNext(t, s, ev, schema.AllowOnce)
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	snap := s.Snapshot()
	if len(snap.Decisions) != 1 {
		t.Fatalf("decisions %+v", snap.Decisions)
	}
	d := snap.Decisions[0]
	if d.RequestID != p.RequestID || d.ToolCallID != p.ToolCallID || d.Outcome != "selected" || d.OptionKind != schema.AllowOnce ||
		d.OptionName == "" || d.DecidedBy != acp.DecidedByUser {
		t.Fatalf("decision %+v for request %+v", d, p)
	}
	// A seeded session starts with the saved decisions and adds its own after them.
	seeded := acp.NewSession(acp.Config{ID: "s2", AgentName: "x", Cwd: "/p", Emitter: newEvents(), Logf: t.Logf, Seed: savedSeed(),
		Launch: func(context.Context) (acp.Transport, error) { return nil, errors.New("unused") }})
	defer seeded.Close()
	if got := seeded.Snapshot().Decisions; len(got) != 1 || got[0].OptionKind != schema.AllowOnce {
		t.Fatalf("seeded decisions %+v", got)
	}
}
