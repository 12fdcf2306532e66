package acptest

import (
	"encoding/json"
	"errors"
	"testing"

	"agentdesk/backend/acp/jsonrpc"
)

// Params is v as a request's params, failing t if it does not marshal.
func Params(t testing.TB, v any) json.RawMessage {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// RPCCode is the JSON-RPC code of an answer's error (a *jsonrpc.Error), or 0.
func RPCCode(err error) int {
	var e *jsonrpc.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}
