package jsonrpc

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Error codes of JSON-RPC 2.0 itself. The set is open: peers send others (Gemini CLI sends 500),
// which Error carries unchanged; protocols on top add their own (see package acp).
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
)

// MethodCancelRequest is the notification that tells the peer to stop working on one of our
// requests; a Pending sends it when its caller stops waiting. (ACP names it so; LSP's is
// $/cancelRequest.)
const MethodCancelRequest = "$/cancel_request"

// CancelRequestParams are the params of MethodCancelRequest: the id of the request, as sent.
type CancelRequestParams struct {
	RequestID json.RawMessage `json:"requestId"`
}

// Error is a JSON-RPC error object, from either peer. Use errors.As to get it from a Call
// error; Data is kept raw because peers put the real reason there (Codex: data.message).
// Request.Reply sends an *Error as is.
type Error struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

var _ error = (*Error)(nil)

// Error renders code, message and, when present, the data compactly.
func (e *Error) Error() string {
	s := fmt.Sprintf("%s (code %d)", e.Message, e.Code)
	if d := strings.TrimSpace(string(e.Data)); d != "" && d != "null" {
		s += ": " + d
	}
	return s
}

// DecodeParams decodes a request's params into a T. Params that do not decode are an *Error with
// CodeInvalidParams naming the method ("invalid fs/read_text_file params: …"), for the answer.
func DecodeParams[T any](method string, params json.RawMessage) (T, error) {
	var p T
	if err := json.Unmarshal(params, &p); err != nil {
		return p, &Error{Code: CodeInvalidParams, Message: "invalid " + method + " params: " + err.Error()}
	}
	return p, nil
}

// envelope is any JSON-RPC message. Presence of ID (len > 0, so `"id": null` counts) and Method
// classify it: both → request, Method only → notification, ID only → response.
type envelope struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`

	bad  *undecodable // set on a message read that does not decode: it has only ID and Method
	size int          // bytes of its line, counted in Conn.ahead until it is handled
}

func (e *envelope) isRequest() bool      { return len(e.ID) > 0 && e.Method != "" }
func (e *envelope) isNotification() bool { return len(e.ID) == 0 && e.Method != "" }
func (e *envelope) isResponse() bool     { return len(e.ID) > 0 && e.Method == "" }

// wireEnvelope is an envelope as decoded from a line: its raw values share the line's memory
// (see RawView), where json.RawMessage would copy them.
type wireEnvelope struct {
	JSONRPC string  `json:"jsonrpc"`
	ID      RawView `json:"id"`
	Method  string  `json:"method"`
	Params  RawView `json:"params"`
	Result  RawView `json:"result"`
	Error   *Error  `json:"error"`
}

// RawView is a raw JSON value decoded without a copy: it points into json.Unmarshal's (or
// Unmarshal's) own input. Only for input that nothing changes afterwards, as the lines the connection reads and
// the params it hands a Handler: a huge message was otherwise held once more by each raw value
// on its way in. Convert it to json.RawMessage to keep it.
type RawView []byte

var _ json.Unmarshaler = (*RawView)(nil)

// UnmarshalJSON implements json.Unmarshaler. json.Unmarshal passes a slice of its input.
func (s *RawView) UnmarshalJSON(data []byte) error {
	*s = data
	return nil
}
