package jsonrpc

import (
	"reflect"

	jsonv2 "github.com/go-json-experiment/json"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

// v1Semantics makes json v2 decode exactly as encoding/json does (case-insensitive names, the
// last of duplicate names, invalid UTF-8 replaced, the same errors). Part of those semantics is
// a validity scan of the whole value before decoding it, which doubled what a decode cost.
var v1Semantics = jsonv1.DefaultOptionsV1()

// onePass is v1Semantics without the legacy error reporting: no scan first, and decoding stops at
// the first error. A value that decodes without error decodes the same under both; only errors
// differ (their words, and what was written before them), which is why Unmarshal redoes a failed
// decode with v1Semantics.
var onePass = jsonv2.JoinOptions(v1Semantics, jsonv1.ReportErrorsWithLegacySemantics(false))

// Unmarshal decodes data into v with encoding/json's semantics, at json v2's cost: one pass with
// pooled decoder state. v must point to a zero value. It is for the per-update path (each line's
// envelope, each session/update and its content), where encoding/json's scan and allocations
// were most of what an update cost (docs/performance.md). On an error it zeroes v and decodes
// again with encoding/json's error semantics, so that a bad line fails with the same words and
// leaves v as encoding/json would; that second pass costs only bad input. A RawView in v points
// into data, as with encoding/json. The module is the official mirror of Go 1.27's
// encoding/json/v2; on Go 1.27 the import becomes the standard library's.
func Unmarshal(data []byte, v any) error {
	if jsonv2.Unmarshal(data, v, onePass) == nil {
		return nil
	}
	if p := reflect.ValueOf(v); p.Kind() == reflect.Pointer && !p.IsNil() {
		p.Elem().SetZero()
	}
	return jsonv2.Unmarshal(data, v, v1Semantics)
}
