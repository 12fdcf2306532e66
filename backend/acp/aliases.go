package acp

import (
	"io"

	"agentdesk/backend/acp/jsonrpc"
)

// Names of package jsonrpc that callers outside backend/acp still spell acp.X. The connection
// moved into its own package (issue 14); once those callers import jsonrpc, these go.

// Conn is jsonrpc.Conn.
type Conn = jsonrpc.Conn

// Request is jsonrpc.Request.
type Request = jsonrpc.Request

// RPCError is jsonrpc.Error: a JSON-RPC error object (see AuthRequiredError.Err).
type RPCError = jsonrpc.Error

// Direction is jsonrpc.Direction, the first argument of Config.Journal.
type Direction = jsonrpc.Direction

// NewConn is jsonrpc.NewConn.
func NewConn(r io.Reader, w io.Writer, h jsonrpc.Handler, opts ...jsonrpc.Option) *jsonrpc.Conn {
	return jsonrpc.NewConn(r, w, h, opts...)
}

// WithLogf is jsonrpc.WithLogf.
func WithLogf(f func(string, ...any)) jsonrpc.Option { return jsonrpc.WithLogf(f) }
