package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestTheSummaryReadsBothKindsOfLinesAndTakesTheMedian: figures printed as `name: value unit`
// and as Go benchmark metrics reach their budget rows; three runs give their median; a figure
// that misses its goal says so, and one the run did not print says "not run".
func TestTheSummaryReadsBothKindsOfLinesAndTakesTheMedian(t *testing.T) {
	out := `engine_vs_sdk: 3.5x
engine_vs_sdk: 1.5x
engine_vs_sdk: 2.5x
engine_allocs_per_update: 31.3
BenchmarkWriterFlood-2   	  100000	     11136 ns/op	     4000 cpu-ns/chunk	        15.31 fts-rows/1k-chunks
BenchmarkMatch/command-400-rules-2    	   36829	     32130 ns/op	    8871 B/op	      66 allocs/op
`
	values := map[string][]float64{}
	collect(strings.NewReader(out), values)
	var b bytes.Buffer
	write(&b, values)
	got := b.String()
	for _, want := range []string{
		"| `engine_vs_sdk` | ≥ 2× | 2.5× | met |",
		"| `engine_allocs_per_update` | ≤ 16 allocs | 31.3 allocs | **not met** |",
		"| `BenchmarkWriterFlood cpu-ns/chunk` | ≤ 5000 ns | 4000 ns | met |",
		"| `BenchmarkMatch/command-400-rules ns/op` | ≤ 50000 ns | 32130 ns | met |",
		"| `stream_app_cpu` | ≤ 250 ms | not run | |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the summary lacks %q:\n%s", want, got)
		}
	}
}
