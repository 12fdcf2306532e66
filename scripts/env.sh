# shellcheck shell=bash disable=SC2034 # the variables here are used by the scripts that source it
# Sourced by every script in scripts/: one place for paths, build tags and Go flags,
# so every build shares the Go build cache and a tag change is made once.

# Repo root, whatever the caller's cwd; every script works from here.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export ROOT
cd "$ROOT" || exit 1

# CI has no stdin: never let apt/dpkg ask anything.
export DEBIAN_FRONTEND=noninteractive

# WebKitGTK flavour, the ONLY knob for it: empty = webkit2gtk-4.0 (Debian 12, what Wails
# links by default); "webkit2_41" = webkit2gtk-4.1 (Debian 13 / Ubuntu 24.04 dropped 4.0).
WEBKIT_TAG="${WEBKIT_TAG:-}"
TAGS="${WEBKIT_TAG:+,$WEBKIT_TAG}"
if [[ "$WEBKIT_TAG" == webkit2_41 ]]; then
	WEBKIT_DEV_PKG=libwebkit2gtk-4.1-dev
	WEBKIT_RUNTIME_PKG=libwebkit2gtk-4.1-0
else
	WEBKIT_DEV_PKG=libwebkit2gtk-4.0-dev
	WEBKIT_RUNTIME_PKG=libwebkit2gtk-4.0-37
fi
export WEBKIT_TAG

# Go is often installed in /usr/local/go without being on a non-login PATH.
if ! command -v go >/dev/null 2>&1 && [[ -x /usr/local/go/bin/go ]]; then
	PATH="/usr/local/go/bin:$PATH"
fi
# `go install` (the Wails CLI) writes to GOBIN, else GOPATH/bin: put it first on PATH.
if command -v go >/dev/null 2>&1; then
	GOBIN_DIR="$(go env GOBIN)"
	[[ -n "$GOBIN_DIR" ]] || GOBIN_DIR="$(go env GOPATH)/bin"
	PATH="$GOBIN_DIR:$PATH"
fi
export PATH

# The Go flag sets used everywhere. Keep them identical across scripts (no -trimpath here and
# not there, no extra -gcflags) so test, dev and prod builds share the build cache.
GO_PROD_FLAGS=(-tags "desktop,production${TAGS}" -ldflags "-w -s") # = `wails build`
GO_DEV_FLAGS=(-tags "dev${TAGS}") # embedded dev server, for e2e
GO_TEST_FLAGS=() # tests need no tags: they never open a window

# One Xvfb screen for every headless run (e2e, smoke, run.sh without a display).
XVFB_ARGS=(-a -s "-screen 0 1280x800x24 -nolisten tcp")

# Binaries.
# A WebKitGTK 4.1 build (make package's default) is a binary of its own, so that it never stands
# in for the 4.0 build the smoke test and `make run` use on this machine, nor the other way round.
BIN_PROD="$ROOT/build/bin/agentdesk${WEBKIT_TAG:+-$WEBKIT_TAG}"
BIN_DEV="$ROOT/build/bin/agentdesk-dev"

# Helpers.
say() { printf '%s\n' "$*"; }
die() {
	printf '%s: error: %s\n' "$(basename "$0")" "$*" >&2
	exit 1
}

# Run setup.sh once per top-level command: scripts call each other, and setup is the
# first thing any entry point does so a fresh clone just works.
ensure_setup() {
	if [[ -z "${AGENTDESK_SETUP_DONE:-}" ]]; then
		"$ROOT/scripts/setup.sh"
		export AGENTDESK_SETUP_DONE=1
	fi
}

# Give a test run its own D-Bus session bus: Wails' SingleInstanceLock lives on the session bus,
# so a test instance must never meet a developer's running agentdesk (docs/development.md).
# Started by hand rather than with dbus-run-session, whose daemon prints a harmless but noisy
# "Failed to set fd limit" line as root in a container.
with_session_bus() {
	if ! command -v dbus-daemon >/dev/null 2>&1; then
		"$@"
		return
	fi
	local addrfile pid addr="" rc=0
	addrfile="$(mktemp)"
	# --nofork keeps the daemon our child, so we can reap it (no zombie left behind).
	dbus-daemon --session --nofork --nopidfile --print-address=1 >"$addrfile" 2>/dev/null &
	pid=$!
	for _ in {1..100}; do # up to 5 s; it usually takes a few ms
		addr="$(head -n1 "$addrfile")"
		[[ -z "$addr" ]] || break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	rm -f "$addrfile"
	if [[ -z "$addr" ]]; then
		say "warning: could not start a private D-Bus session bus; running without one" >&2
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		"$@"
		return
	fi
	DBUS_SESSION_BUS_ADDRESS="$addr" "$@" || rc=$?
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	return "$rc"
}
