package jsonrpc

import (
	jsonv2 "github.com/go-json-experiment/json"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

// v1Semantics makes json v2 decode exactly as encoding/json does (case-insensitive names, the
// last of duplicate names, invalid UTF-8 replaced, the same errors).
var v1Semantics = jsonv1.DefaultOptionsV1()

// Unmarshal decodes data into v with encoding/json's semantics, at json v2's cost: one pass
// with no validity scan first and pooled decoder state. It is for the per-update path (each
// line's envelope, each session/update and its content), where encoding/json's scan and
// allocations were most of what an update cost (docs/performance.md). A RawView in v points into
// data, as with encoding/json. The module is the official mirror of Go 1.27's encoding/json/v2;
// on Go 1.27 the import becomes the standard library's.
func Unmarshal(data []byte, v any) error {
	return jsonv2.Unmarshal(data, v, v1Semantics)
}
