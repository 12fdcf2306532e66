//go:build linux || darwin

package jsonrpc

import (
	"sync/atomic"
	"syscall"
)

// mappedBytes is how many bytes stages hold mapped now (the tests check it returns to 0).
var mappedBytes atomic.Int64

// mapChunk maps size bytes of anonymous memory: the system hands out pages as they are first
// written and takes them all back at unmapChunk, without the Go collector.
func mapChunk(size int) ([]byte, bool) {
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, false
	}
	mappedBytes.Add(int64(size))
	return mem, true
}

// unmapChunk gives back memory from mapChunk; nothing may use it afterwards.
func unmapChunk(mem []byte) {
	if syscall.Munmap(mem) == nil {
		mappedBytes.Add(-int64(len(mem)))
	}
}
