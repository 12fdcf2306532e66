// Package hub is agentdesk's application core, the part both front ends drive: the window (the
// Wails App in package main) and the command line (backend/cli). It owns the live sessions
// (Hub), wires each to the history (the recorder: events become store rows, SnapshotFromStore
// reads them back), keeps the secrets the agents were given out of everything that leaves
// agentdesk (live masking, MaskSnapshot, the history masking passes), watches the history's
// writes (HistoryHealth), remembers why a start failed for a login (Hub.AuthRequired), and is
// the composition root: Open builds the Core (history, catalog with the registry's installs,
// masker, rules, ledger, login environment, hub) for the window and every command alike. It
// imports no Wails and nothing of the front ends; it chooses no words for a person where a
// front end's user differs (HistoryHealth takes its describe function from the front end).
//
// Guarantees:
//
//   - Both front ends get one core: the same agents (built-in, installed from the registry,
//     custom) and a masker that knows every stored secret (learnt before Open returns, or in the
//     background for the window, Options.MaskInBackground). Options carry only what differs.
//   - A session's events reach the history and the front end in the engine's order, masked
//     first: no secret value the catalog's masker knew when an event was emitted is saved or
//     shown in clear, even one an agent streamed cut across two chunks (liveMasker).
//   - Recording never slows the protocol: every write is queued (store.Writer never blocks), and
//     a stuck disk costs memory, not latency.
//   - What failed writes lost is put back: HistoryHealth retries every 15 s (and on request)
//     with a whole copy of each live session, queued in order with its events.
//   - The one-time pass over an older history masks every value stored for the agents, once per
//     file, and is recorded only when every stored value could be read.
//   - One session, one owner: every session the hub makes live (Start, ContinueSaved, Fork) is
//     claimed in the store first and released once it has left the hub and its last writes are
//     flushed; a session live in another agentdesk process is refused with the store's
//     *store.OwnedError (naming that process), one live here with ErrAlreadyLive. A write the
//     store refuses reaches HistoryHealth, which the front end shows, also one reported before
//     the front end wired it.
//   - Hub's methods are safe for concurrent use and never wait on an agent, except CloseAll,
//     which stops every agent (the stop ladder, in parallel) and flushes the store.
package hub
