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
//   - No link leads out of an install: every entry is written through an os.Root, and a
//     symlink is kept only if, resolved through the tree as extracted (each component looked
//     up on disk, each link followed from where it really is), it stays inside; this is judged
//     when it is made and for every link again once all entries are written, never by its text
//     alone ("l -> ." then "l/up -> .." reads as inside and leads out). Hard links, devices and
//     FIFOs are refused.
//   - An archive cannot fill the disk: each entry's declared size is judged against the
//     per-file cap (Installer.MaxEntry) and what is left of the total (MaxExtract) before a byte
//     of it is written (a zip's whole table first), its data is cut where its header said it
//     ends, and the entries are counted (MaxEntries). The extraction folder never holds more
//     than the cap and one copy buffer.
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
