package acp

import (
	"errors"

	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// quirks are the answers agentdesk bends for one agent's known bug, each keyed on the name the
// agent gives itself in initialize (agentInfo.name) so that it holds however the agent was
// started (preset, registry, --agent-cmd), each listed in docs/acp.md ("Quirks served").
type quirks struct {
	// missingAsEmpty answers fs/read_text_file of a missing file with empty content instead of
	// -32002. Gemini CLI (0.61 and, as of 2026-12, upstream) reads a file before it writes it and
	// tells "not found" apart only by an Error's message; the JSON-RPC error reaches it as a
	// plain object, so every new file fails "Error checking existing file" (gemini-cli#26448,
	// closed unfixed). Zed answers a missing file with an empty buffer, so Gemini works there.
	// Gemini's own read tool checks existence on its own disk first, so the model is not told an
	// absent file is empty; the ledger records the write as a new file either way.
	missingAsEmpty bool
}

// quirksOf is what agentdesk bends for the agent that sent info (nil: none).
func quirksOf(info *schema.Implementation) quirks {
	if info == nil {
		return quirks{}
	}
	return quirks{missingAsEmpty: info.Name == "gemini-cli"}
}

// bendRead applies q to an fs/read_text_file answer: a missing file becomes empty content for an
// agent with missingAsEmpty; anything else is returned as it is.
func (q quirks) bendRead(res any, err error) (any, error) {
	var rpcErr *jsonrpc.Error
	if q.missingAsEmpty && errors.As(err, &rpcErr) && rpcErr.Code == schema.CodeResourceNotFound {
		return map[string]string{"content": ""}, nil
	}
	return res, err
}
