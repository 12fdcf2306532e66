package supervisor_test

import (
	"slices"
	"testing"

	"agentdesk/backend/supervise/supervisor"
)

// TestReportRoundTrip: what a supervisor reports is what agentdesk reads, and anything else (a
// supervisor killed before it could report wrote nothing) reads as unknown, never as "killed".
func TestReportRoundTrip(t *testing.T) {
	for _, left := range [][]int{nil, {12}, {12, 34567}} {
		got, known := supervisor.ParseReport(supervisor.Report(left))
		if !known || !slices.Equal(got, left) {
			t.Fatalf("Report(%v) read back as %v, %v", left, got, known)
		}
	}
	for _, raw := range []string{"", "kill", "killed-ish 1", "\n"} {
		if left, known := supervisor.ParseReport(raw); known || left != nil {
			t.Fatalf("ParseReport(%q) = %v, %v; want unknown", raw, left, known)
		}
	}
}
