//go:build race

package store

// raceEnabled: the race detector slows SQLite (transpiled C) about tenfold, so the biggest
// floods run at a fifth of their size under it (the full size runs without it).
const raceEnabled = true
