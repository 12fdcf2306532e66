package jsonrpc_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"agentdesk/backend/acp/jsonrpc"
)

// TestDecodeParams: params that decode come back as the type asked for; params that do not are
// an *Error with CodeInvalidParams whose message names the method, ready to answer with.
func TestDecodeParams(t *testing.T) {
	type readParams struct {
		Path string `json:"path"`
	}
	p, err := jsonrpc.DecodeParams[readParams]("fs/read_text_file", json.RawMessage(`{"path":"/p/a.go"}`))
	if err != nil || p.Path != "/p/a.go" {
		t.Fatalf("DecodeParams = %+v, %v", p, err)
	}
	_, err = jsonrpc.DecodeParams[readParams]("fs/read_text_file", json.RawMessage(`{"path":7}`))
	var e *jsonrpc.Error
	if !errors.As(err, &e) || e.Code != jsonrpc.CodeInvalidParams || !strings.HasPrefix(e.Message, "invalid fs/read_text_file params: ") {
		t.Fatalf("DecodeParams of a number for a string: %v, want an invalid params error naming the method", err)
	}
}
