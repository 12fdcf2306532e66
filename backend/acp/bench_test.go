package acp_test

import (
	"fmt"
	"runtime"
	"testing"
	"time"
)

// BenchmarkEngineVsBaselines streams 200,000 scripted session/update notifications (mostly
// agent_message_chunk, some agent_thought_chunk and tool_call_update for a handful of tool ids)
// over a pipe, unthrottled, and measures updates/s through connection → reducer → coalesced
// events, against two baselines fed the same bytes in the same run:
//
//   - acp-go-sdk's ClientSideConnection with a no-op client. Fed unthrottled it is expected to
//     close the connection (its notification queue holds 1,024); that is reported, and it is
//     then measured fed 1,000 lines at a time, each batch delivered before the next is written.
//   - the floor: a loop that only splits lines and json-decodes the envelope and the update.
//
// It prints one `name: value unit` line per figure and reports the main ones as metrics. The
// targets (engine_vs_sdk ≥ 1.5, engine_vs_floor ≥ 0.6) are reported, never asserted. The
// built-in ns/op, B/op and allocs/op cover one iteration of all contenders together.
func BenchmarkEngineVsBaselines(b *testing.B) {
	if testing.Short() {
		b.Skip("streams 200,000 updates through three contenders; skipped in -short")
	}
	f := sharedBenchFeed()
	updates := len(f.lineEnd)

	var (
		engineDur, sdkDur, floorDur time.Duration
		engineAllocs, engineBytes   uint64
		entries, chunks             int64
		sdkFailure                  string
		sdkDelivered, sdkFailures   int
		iterations                  int
	)
	var before, after runtime.MemStats
	for b.Loop() {
		iterations++

		runtime.GC()
		runtime.ReadMemStats(&before)
		run, err := runBenchEngine(f, nil, nil)
		runtime.ReadMemStats(&after)
		if err != nil {
			b.Fatal(err)
		}
		engineDur += run.dur
		engineAllocs += after.Mallocs - before.Mallocs
		engineBytes += after.TotalAlloc - before.TotalAlloc
		entries, chunks = run.entries, run.chunks

		runtime.GC()
		if failure, delivered := runSDKUnthrottled(f); failure != "" {
			sdkFailures++
			sdkFailure, sdkDelivered = failure, delivered
		}

		runtime.GC()
		d, err := runSDKBatched(f)
		if err != nil {
			b.Fatal(err)
		}
		sdkDur += d

		runtime.GC()
		d, n, err := runFloor(f)
		if err != nil {
			b.Fatal(err)
		}
		if n != updates {
			b.Fatalf("the floor decoded %d updates, want %d", n, updates)
		}
		floorDur += d
	}

	// Memory over the stream, untimed: live heap attributable to the session after 50k
	// updates (the agent paused there) and after all 200k.
	var base, at50k, at200k runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&base)
	measure := func(m *runtime.MemStats) func() {
		return func() {
			runtime.GC()
			runtime.ReadMemStats(m)
		}
	}
	if _, err := runBenchEngine(f, measure(&at50k), measure(&at200k)); err != nil {
		b.Fatal(err)
	}
	heap50k := float64(at50k.HeapAlloc) - float64(base.HeapAlloc)
	heap200k := float64(at200k.HeapAlloc) - float64(base.HeapAlloc)

	total := float64(updates * iterations)
	rate := func(d time.Duration) float64 { return total / d.Seconds() }
	engineRate, sdkRate, floorRate := rate(engineDur), rate(sdkDur), rate(floorDur)
	sdkUnthrottled := "ok"
	if sdkFailures > 0 {
		sdkUnthrottled = fmt.Sprintf("failed (%s; %d of %d updates delivered; %d of %d runs failed)",
			sdkFailure, sdkDelivered, updates, sdkFailures, iterations)
	}
	b.ReportMetric(engineRate, "engine_updates/s")
	b.ReportMetric(sdkRate, "sdk_batched_updates/s")
	b.ReportMetric(floorRate, "floor_updates/s")
	b.ReportMetric(engineRate/sdkRate, "engine_vs_sdk_x")
	b.ReportMetric(engineRate/floorRate, "engine_vs_floor_x")
	b.ReportMetric(float64(engineAllocs)/total, "engine_allocs/update")
	b.ReportMetric(float64(engineBytes)/total, "engine_B/update")
	b.ReportMetric(heap200k/heap50k, "heap_200k_vs_50k_x")

	fmt.Printf("feed_updates: %d updates\n", updates)
	fmt.Printf("feed_agent_message_chunk: %d updates\n", f.chunks)
	fmt.Printf("feed_agent_thought_chunk: %d updates\n", f.thoughts)
	fmt.Printf("feed_tool_call_update: %d updates\n", f.tools)
	fmt.Printf("feed_size: %.1f MiB\n", float64(len(f.data))/(1<<20))
	fmt.Printf("iterations: %d runs\n", iterations)
	fmt.Printf("engine_updates_per_s: %.0f updates/s\n", engineRate)
	fmt.Printf("engine_entry_events: %d events\n", entries)
	fmt.Printf("engine_chunk_events: %d events\n", chunks)
	fmt.Printf("sdk_batched_updates_per_s: %.0f updates/s\n", sdkRate)
	fmt.Printf("sdk_unthrottled: %s\n", sdkUnthrottled)
	fmt.Printf("floor_updates_per_s: %.0f updates/s\n", floorRate)
	fmt.Printf("engine_vs_sdk: %.2fx\n", engineRate/sdkRate)
	fmt.Printf("engine_vs_floor: %.2fx\n", engineRate/floorRate)
	fmt.Printf("engine_allocs_per_update: %.1f\n", float64(engineAllocs)/total)
	fmt.Printf("engine_bytes_per_update: %.0f\n", float64(engineBytes)/total)
	fmt.Printf("peak_rss: %.0f MiB\n", peakRSSMiB())
	fmt.Printf("heap_50k: %.1f MiB\n", heap50k/(1<<20))
	fmt.Printf("heap_200k: %.1f MiB\n", heap200k/(1<<20))
	fmt.Printf("heap_200k_vs_50k: %.2fx\n", heap200k/heap50k)
	// For comparison: the transcript must keep all message text, so a flat engine grows by this.
	fmt.Printf("retained_text_200k_vs_50k: %.2fx\n", float64(f.textTotal)/float64(f.textAtMark))
}
