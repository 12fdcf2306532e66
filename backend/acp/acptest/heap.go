package acptest

import (
	"runtime/metrics"
	"time"
)

// HeapPeak samples the bytes of the heap's objects (live, and dead ones not swept yet) every
// millisecond until the returned function is called, which returns the highest value seen. It
// reads runtime/metrics, which never stops the world: runtime.ReadMemStats in a loop does, and
// so slowed what it measured a hundredfold. The huge-line benchmark and test use it.
func HeapPeak() (stop func() uint64) {
	quit, done := make(chan struct{}), make(chan uint64)
	go func() {
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		var top uint64
		for {
			metrics.Read(sample)
			top = max(top, sample[0].Value.Uint64())
			select {
			case <-quit:
				done <- top
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 { close(quit); return <-done }
}
