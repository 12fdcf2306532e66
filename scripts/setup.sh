#!/usr/bin/env bash
# Idempotent machine + repo setup. Silent when there is nothing to do, so every entry point
# (make run/test/build/...) can call it first and a fresh clone or fresh CI machine just works.
# Non-interactive: CI runs as root with no stdin.
set -euo pipefail
# shellcheck source=scripts/env.sh
source "$(dirname "$0")/env.sh"

# --- apt packages -----------------------------------------------------------------------------
# Build set, display set (Xvfb + screenshots + xdotool), chromium for e2e, fonts/dbus that a
# minimal image lacks, dpkg-dev for packaging. Keep in sync with docs/development.md
APT_PKGS=(
	build-essential pkg-config libgtk-3-dev "$WEBKIT_DEV_PKG"
	xvfb xauth xdotool imagemagick
	chromium
	fonts-dejavu-core dbus-daemon dpkg-dev
)

installed() { [[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" == installed ]]; }

missing=()
for p in "${APT_PKGS[@]}"; do
	installed "$p" || missing+=("$p")
done
if ((${#missing[@]})); then
	sudo=()
	if [[ "$(id -u)" -ne 0 ]]; then
		# -n: fail instead of prompting (there is no stdin in CI).
		command -v sudo >/dev/null 2>&1 || die "not root and no sudo: install as root: apt-get install ${missing[*]}"
		sudo=(sudo -n)
	fi
	say "setup: installing apt packages: ${missing[*]}"
	# Lock timeout: wait for another apt/dpkg (e.g. unattended upgrades) instead of failing.
	apt_opts=(-o DPkg::Lock::Timeout=600 -qq)
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${apt_opts[@]}" update >/dev/null ||
		die "apt-get update failed"
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${apt_opts[@]}" install -y --no-install-recommends \
		"${missing[@]}" >/dev/null || die "apt-get install ${missing[*]} failed"
fi

# --- Go ---------------------------------------------------------------------------------------
# modernc.org/sqlite and friends declare go 1.26.0 (docs/development.md).
command -v go >/dev/null 2>&1 ||
	die "Go >= 1.26 is required and 'go' is not on PATH (see https://go.dev/dl/; Debian 12's golang is too old)"
gover="$(go env GOVERSION)" # e.g. go1.26.8
IFS=. read -r gomaj gomin _ <<<"${gover#go}"
if ((gomaj < 1 || (gomaj == 1 && ${gomin%%[!0-9]*} < 26))); then
	die "Go >= 1.26 is required, found $gover (see https://go.dev/dl/)"
fi
# Cheap when the module cache is warm; prints nothing then.
go mod download

# --- Node -------------------------------------------------------------------------------------
if ! command -v node >/dev/null 2>&1; then
	die "Node.js >= 20 is required and 'node' is not on PATH. Debian 12's nodejs package is 18, which is
too old (vite 8, vitest 4). Install Node 20+ (official tarball from nodejs.org, NodeSource, or nvm) and
put its bin/ on PATH, then re-run."
fi
nodever="$(node --version)" # e.g. v20.20.2
nodemaj="${nodever#v}"
nodemaj="${nodemaj%%.*}"
if ! [[ "$nodemaj" =~ ^[0-9]+$ ]] || ((nodemaj < 20)); then
	die "Node.js >= 20 is required, found $nodever (Debian 12's nodejs is 18: install Node 20+ from nodejs.org, NodeSource or nvm)"
fi
command -v npm >/dev/null 2>&1 || die "npm is not on PATH (it ships with Node.js >= 20)"

# npm ci only when node_modules is missing or older than package.json/package-lock.json.
# The stamp lives inside node_modules so deleting node_modules also forces a reinstall.
npm_ci() {
	local dir="$1" stamp="$1/node_modules/.agentdesk-npm-ci.stamp"
	[[ -f "$dir/package.json" ]] || return 0
	[[ -f "$dir/package-lock.json" ]] ||
		die "$dir/package-lock.json is missing: run 'npm install' in $dir once and commit the lock (npm ci needs it)"
	if [[ ! -f "$stamp" || "$dir/package-lock.json" -nt "$stamp" || "$dir/package.json" -nt "$stamp" ]]; then
		say "setup: npm ci in $dir/"
		# One retry: npm ci deletes node_modules, which fails (ENOTEMPTY) if a vite/vitest run is
		# writing its cache there at the same moment.
		(cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) ||
			(cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) ||
			die "npm ci in $dir failed (if it says 'Missing: ...', run 'npm install' there once and commit the lock)"
		touch "$stamp"
	fi
}
npm_ci frontend
npm_ci e2e

# --- Wails CLI --------------------------------------------------------------------------------
# Pinned in tools/wails/go.mod because `go install ...@v2.9.2` fails on Go >= 1.23 (docs/development.md).
# Needed for `wails generate module` (bindings drift check) and `wails dev`.
want="$(sed -n 's#^[[:space:]]*github.com/wailsapp/wails/v2 \(v[^ ]*\).*#\1#p' tools/wails/go.mod)"
[[ -n "$want" ]] || die "cannot read the Wails version from tools/wails/go.mod"
have=""
if [[ -x "$GOBIN_DIR/wails" ]]; then
	have="$("$GOBIN_DIR/wails" version 2>/dev/null | head -n1 | tr -d '[:space:]')" || true
fi
if [[ "$have" != "$want" ]]; then
	say "setup: installing Wails CLI $want into $GOBIN_DIR (first time takes about a minute)"
	go -C tools/wails install tool
fi
