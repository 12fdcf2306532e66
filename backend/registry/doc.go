// Package registry browses the ACP agent registry (github.com/agentclientprotocol/registry,
// served as one registry.json from its CDN) and installs the agents it lists into a private
// prefix under agentdesk's data folder, so they start at the exact version the registry names.
//
// Its guarantees:
//
//   - Browsing never fails for want of a network: Source.Load fetches the index (conditionally,
//     with the cached copy's ETag and Last-Modified), keeps it in the data folder, and when the
//     registry cannot be reached falls back to that copy and then to the snapshot embedded in
//     the binary, saying which (Listing.Offline, Listing.Origin, Listing.Note).
//   - An install is exact and private: an npx entry is installed with npm at the version it
//     names (pkg@X.Y.Z; "latest" or a range is refused) into <root>/<id>/<version>, and its
//     bin is started directly from there, never through npx; a binary entry's archive for this
//     platform is downloaded, checked against the registry's sha256 when it gives one, and
//     extracted without letting any entry escape the install folder.
//   - An installed agent is what was installed: the sha256 of its command is recorded in the
//     install's manifest and Installer.Verify, run before every start, refuses a command that
//     changed since.
//   - Installs are atomic and serialised: each is built in a temporary folder beside the
//     final one and renamed into place, installs of one agent run one at a time, and a failed
//     install leaves the previous one current and working. An update keeps the previous
//     version for Rollback; Uninstall removes every version.
//
// No function here reaches the network except through the http.Client and the npm runner it
// was given, so tests serve a fixture registry from a temp folder.
package registry
