package acp_test

import (
	"encoding/json"
	"testing"
	"time"

	"agentdesk/backend/acp/acptest"
)

// params and rpcCode: a request's params as JSON, and the JSON-RPC code of an answer's error.

func params(t *testing.T, v any) json.RawMessage { return acptest.Params(t, v) }

func rpcCode(err error) int { return acptest.RPCCode(err) }

// hangGuard is how long a test waits for what must happen at once; only a hung test reaches it.
const hangGuard = 20 * time.Second
