//go:build !(linux || darwin)

package jsonrpc

import "sync/atomic"

// mappedBytes is always 0 here: stages gather in the heap (see stage_mmap.go).
var mappedBytes atomic.Int64

// mapChunk refuses: on this system a stage's chunks come from the heap.
func mapChunk(int) ([]byte, bool) { return nil, false }

// unmapChunk is never called here.
func unmapChunk([]byte) {}
