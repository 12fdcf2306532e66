package acp

import "encoding/json"

// MaxToolName bounds a tool call's name as shown and matched, in bytes.
const MaxToolName = 128

// toolName is a tool call's name after an update whose name field is raw: a string replaces it
// (as one plain line, plainLine), null clears it, and a value of another type leaves old as it
// was (the schema's default-on-error: the rest of the update still applies).
func toolName(raw json.RawMessage, old string) string {
	var name *string
	if json.Unmarshal(raw, &name) != nil {
		return old
	}
	if name == nil {
		return ""
	}
	return plainLine(*name, MaxToolName)
}
