package registry

import (
	_ "embed"
	"time"
)

// snapshotJSON is a copy of registry.json shipped in the binary, for browsing with no network
// and no cached copy. It was assembled by hand from the agent.json files of
// github.com/agentclientprotocol/registry (see docs/architecture.md), not downloaded whole.
//
//go:embed snapshot.json
var snapshotJSON []byte

// SnapshotDate is when snapshot.json was assembled.
var SnapshotDate = time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC)

// Snapshot is the embedded index. It is checked by a test, so it always parses.
func Snapshot() Index {
	ix, err := ParseIndex(snapshotJSON)
	if err != nil {
		panic("registry: the embedded snapshot does not parse: " + err.Error())
	}
	return ix
}
