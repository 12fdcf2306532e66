package acp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// earlyAgent announces its commands and an unknown update kind before it answers session/new,
// as opencode and Gemini CLI do, then answers each prompt with a chunk and end_turn.
type earlyAgent struct {
	quiet // notifications
	conn  *jsonrpc.Conn
}

func (a *earlyAgent) HandleRequest(req *jsonrpc.Request) {
	switch req.Method {
	case schema.MethodInitialize:
		replyInitialize(req)
	case schema.MethodSessionNew:
		for _, u := range []string{
			`{"sessionUpdate":"available_commands_update","availableCommands":[]}`,
			`{"sessionUpdate":"compaction_summary_chunk","content":{"type":"text","text":"not a user message"}}`,
			`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"ready"}}`,
		} {
			_ = a.conn.Notify(schema.MethodSessionUpdate, map[string]any{"sessionId": "early-1", "update": json.RawMessage(u)})
		}
		req.Reply(map[string]any{"sessionId": "early-1"}, nil)
	default:
		req.Reply(nil, &jsonrpc.Error{Code: schema.CodeMethodNotFound, Message: req.Method})
	}
}

func TestUpdatesBeforeSessionNewAreKept(t *testing.T) {
	ev := newEvents()
	s := acp.NewSession(acp.Config{ID: "s1", AgentName: "early", Cwd: "/p", Emitter: ev, Logf: t.Logf,
		Launch: func(context.Context) (acp.Transport, error) {
			return acptest.ServeHandler(func(c *jsonrpc.Conn) jsonrpc.Handler { return &earlyAgent{conn: c} }), nil
		}})
	defer s.Close()
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	entries := s.Snapshot().Entries
	if len(entries) != 2 {
		t.Fatalf("entries %+v, want the unknown update and the message", entries)
	}
	if entries[0].Kind != acp.KindUnknown || entries[0].UpdateKind != "compaction_summary_chunk" || len(entries[0].Raw) == 0 {
		t.Fatalf("first entry %+v, want the unknown kind kept raw (never decoded as a user message)", entries[0])
	}
	if entries[1].Kind != acp.KindAgent || entries[1].Text != "ready" {
		t.Fatalf("second entry %+v", entries[1])
	}
}

// floodAgent streams more message chunks than MaxEarlyUpdates before it answers session/new.
type floodAgent struct {
	quiet // notifications
	conn  *jsonrpc.Conn
	n     int
}

func (a *floodAgent) HandleRequest(req *jsonrpc.Request) {
	switch req.Method {
	case schema.MethodInitialize:
		replyInitialize(req)
	case schema.MethodSessionNew:
		for i := 0; i < a.n; i++ {
			_ = a.conn.Notify(schema.MethodSessionUpdate, map[string]any{"sessionId": "flood-1",
				"update": json.RawMessage(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}`)})
		}
		req.Reply(map[string]any{"sessionId": "flood-1"}, nil)
	default:
		req.Reply(nil, &jsonrpc.Error{Code: schema.CodeMethodNotFound, Message: req.Method})
	}
}

func TestUpdatesBeforeSessionNewAreBounded(t *testing.T) {
	logs := make(chan string, 64)
	s := acp.NewSession(acp.Config{ID: "s1", AgentName: "flood", Cwd: "/p", Emitter: newEvents(),
		Logf: func(f string, a ...any) {
			select {
			case logs <- fmt.Sprintf(f, a...):
			default:
			}
		},
		Launch: func(context.Context) (acp.Transport, error) {
			return acptest.ServeHandler(func(c *jsonrpc.Conn) jsonrpc.Handler {
				return &floodAgent{conn: c, n: acp.MaxEarlyUpdates + 100}
			}), nil
		}})
	defer s.Close()
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	entries := s.Snapshot().Entries
	if len(entries) != 1 || len(entries[0].Text) != acp.MaxEarlyUpdates {
		t.Fatalf("%d entries, want one message of the first %d chunks", len(entries), acp.MaxEarlyUpdates)
	}
	for {
		select {
		case l := <-logs:
			if strings.Contains(l, "dropped 100 session/update") {
				return
			}
		default:
			t.Fatal("no log line says 100 early updates were dropped")
		}
	}
}
