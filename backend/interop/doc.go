// Package interop runs the real agents — Claude Code (claude-agent-acp) and Codex (codex-acp) at
// the versions in Pinned — offline, through agentdesk's own core, against scripted model
// servers on 127.0.0.1: Anthropic's Messages API (NewAnthropic) and OpenAI's Responses API
// (NewOpenAI), each answering every request from a Script ("asked X, call tool Y; given its
// result, say Z"). Its tests are the suite `make interop` runs; this file's code is only theirs.
//
// Guarantees:
//
//   - The agents are installed from the npm registry with registry.Installer (exact version,
//     npm's lock with every tarball's hash, the command's hash checked before each start) into
//     a cache outside the repository (CacheDir), once; later runs reuse it. With
//     AGENTDESK_INTEROP=1 the tests install what is missing and a missing agent fails them;
//     without it they skip, so `go test ./...` stays fast and offline.
//   - An agent reaches nothing but the scripted server: it gets an environment of its own (no
//     real key, home or configuration of the person running the tests), its proxy variables
//     point at a Tripwire on 127.0.0.1 (every connection it gets is counted; each test ends by
//     requiring none), and every request the server gets is kept (Seen).
//   - The servers are deterministic: a reply depends only on the request and the script;
//     usage is fixed (Usage), so the tests can check what reaches the receipt.
//   - The tests start sessions with hub.Open, the composition root of the window and the
//     command line: history, catalog, change ledger and hub as a person gets them.
package interop
