//go:build race

package hub

// raceEnabled: the race detector slows SQLite (transpiled C) about tenfold, so the biggest
// floods run at a fifth of their size under it (the full size runs in `make bench`).
const raceEnabled = true
