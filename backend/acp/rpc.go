package acp

import (
	"encoding/json"
	"fmt"
	"strings"
)

// JSON-RPC and ACP error codes we produce or treat specially. The set is open: agents send
// others (Gemini CLI sends 500), which RPCError carries unchanged.
const (
	CodeParseError       = -32700
	CodeInvalidRequest   = -32600
	CodeMethodNotFound   = -32601
	CodeInvalidParams    = -32602
	CodeInternalError    = -32603
	CodeRequestCancelled = -32800
	CodeAuthRequired     = -32000
	CodeResourceNotFound = -32002
)

// RPCError is a JSON-RPC error object, from either peer. Use errors.As to get it from a Call
// error; Data is kept raw because agents put the real reason there (Codex: data.message).
type RPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error renders code, message and, when present, the data compactly.
func (e *RPCError) Error() string {
	s := fmt.Sprintf("%s (code %d)", e.Message, e.Code)
	if d := strings.TrimSpace(string(e.Data)); d != "" && d != "null" {
		s += ": " + d
	}
	return s
}

// envelope is any JSON-RPC message. Presence of ID (len > 0, so `"id": null` counts) and Method
// classify it: both → request, Method only → notification, ID only → response.
type envelope struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *RPCError       `json:"error,omitempty"`
}

// wireEnvelope is an envelope as decoded from a line: its raw values share the line's memory
// (see shared), where json.RawMessage would copy them.
type wireEnvelope struct {
	JSONRPC string    `json:"jsonrpc"`
	ID      shared    `json:"id"`
	Method  string    `json:"method"`
	Params  shared    `json:"params"`
	Result  shared    `json:"result"`
	Error   *RPCError `json:"error"`
}

// shared is a raw JSON value decoded without a copy: it points into json.Unmarshal's own
// input. Only for input that nothing changes afterwards, as the lines readLine returns: a huge
// message was otherwise held once more by each raw value on its way in.
type shared []byte

// UnmarshalJSON implements json.Unmarshaler. json.Unmarshal passes a slice of its input.
func (s *shared) UnmarshalJSON(data []byte) error {
	*s = data
	return nil
}

var _ json.Unmarshaler = (*shared)(nil)

func (e *envelope) isRequest() bool      { return len(e.ID) > 0 && e.Method != "" }
func (e *envelope) isNotification() bool { return len(e.ID) == 0 && e.Method != "" }
func (e *envelope) isResponse() bool     { return len(e.ID) > 0 && e.Method == "" }
