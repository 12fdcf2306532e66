package acp_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"agentdesk/backend/acp/jsonrpc"
)

// params and rpcCode: a request's params as JSON, and the JSON-RPC code of an answer's error.

func params(t *testing.T, v any) json.RawMessage {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func rpcCode(err error) int {
	var e *jsonrpc.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}

// hangGuard is how long a test waits for what must happen at once; only a hung test reaches it.
const hangGuard = 20 * time.Second
