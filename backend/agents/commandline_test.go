package agents

import "testing"

func TestCommandLineIDs(t *testing.T) {
	for n, want := range []string{"custom", "custom-2", "custom-3"} {
		if got := CommandLineID(n); got != want || !IsCommandLineID(got) || !Reserved(got) {
			t.Errorf("CommandLineID(%d) = %q (command line %v); want %q, reserved", n, got, IsCommandLineID(got), want)
		}
	}
	for _, id := range []string{"custom-1", "custom-0", "custom-x", "custom-", "customs", "demo", "custom-2a"} {
		if IsCommandLineID(id) {
			t.Errorf("IsCommandLineID(%q) = true", id)
		}
	}
}
