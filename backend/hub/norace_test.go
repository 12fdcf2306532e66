//go:build !race

package hub

// raceEnabled: see race_test.go.
const raceEnabled = false
