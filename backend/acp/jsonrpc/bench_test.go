package jsonrpc_test

import (
	"context"
	"encoding/json"
	"io"
	"testing"

	"agentdesk/backend/acp/jsonrpc"
)

// echoHandler answers every request at once, on the inbound loop, with its params.
type echoHandler struct{}

func (echoHandler) HandleNotification(string, json.RawMessage) {}
func (echoHandler) HandleRequest(r *jsonrpc.Request)           { r.Reply(r.Params, nil) }

// BenchmarkCallRoundTrip: one Call and its answer between two connections over pipes, as an
// agent's fs/* request and agentdesk's reply go: every message through both sides' writers.
func BenchmarkCallRoundTrip(b *testing.B) {
	aR, bW := io.Pipe()
	bR, aW := io.Pipe()
	caller := jsonrpc.NewConn(aR, aW, echoHandler{}, jsonrpc.WithLogf(func(string, ...any) {}))
	jsonrpc.NewConn(bR, bW, echoHandler{}, jsonrpc.WithLogf(func(string, ...any) {}))
	defer func() { aW.Close(); bW.Close() }()
	params := map[string]string{"sessionId": "s1", "path": "/home/u/project/src/main.go"}
	var res map[string]string
	for b.Loop() {
		if err := caller.Call(context.Background(), "fs/read_text_file", params, &res); err != nil {
			b.Fatal(err)
		}
	}
}
