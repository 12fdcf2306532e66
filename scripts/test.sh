#!/usr/bin/env bash
# `make test` / CI: everything, cheapest first, the real-window smoke test last so the output
# ends with its "smoke: N passed, N failed" line (CI reads the end of the log).
set -euo pipefail
# shellcheck source=scripts/env.sh
source "$(dirname "$0")/env.sh"

# Plain logs when captured (CI): no colour escape codes from vitest & co.
[[ -t 1 ]] || export NO_COLOR=1

step=""
n=0
total=11
begin() {
	step="$1"
	n=$((n + 1))
	printf '\n==> [%d/%d] %s\n' "$n" "$total" "$step"
}
# Name the failed step. Not after smoke: its own summary line is the informative last line.
on_exit() {
	local rc=$?
	if ((rc != 0)) && [[ "$step" != smoke ]]; then
		printf '\ntest.sh: FAILED at step [%d/%d] %s (exit %d)\n' "$n" "$total" "$step" "$rc" >&2
	fi
}
trap on_exit EXIT

begin setup
ensure_setup

# Frontend first: package main embeds frontend/dist, and every later Go command compiles it.
begin "build (frontend + production binary)"
"$ROOT/scripts/build.sh"
export AGENTDESK_PREBUILT=1 # e2e.sh/smoke.sh: frontend/dist and build/bin/agentdesk are fresh

begin "bindings and docs drift check"
"$ROOT/scripts/bindings.sh" --check
# The docs' tables of verbs, packages, layers and data-testids, generated from the code (after the
# bindings: the verb table reads them).
go run ./scripts/docgen -check

begin "go vet ./... (and the backend for darwin and windows)"
go vet "${GO_TEST_FLAGS[@]}" ./...
# The core must build everywhere: Linux-only pieces sit behind _linux.go / _unix.go files with a
# fallback that says "not supported on this OS yet" (docs/architecture.md, "Every OS").
GOOS=darwin go vet ./backend/...
GOOS=windows go vet ./backend/...

begin "dependency rule: no package but the root imports Wails"
# The root (package main: the window, the bound services, the build-tag seams) is the only Wails-aware
# package; the core (backend/hub, backend/cli, backend/export) and everything beneath it must
# build without it. Capture first: `go list | grep -q` under pipefail can fail on SIGPIPE and
# hide a match.
module="$(go list -m)"
mapfile -t pkgs < <(go list ./... | grep -vxF "$module")
((${#pkgs[@]} > 0)) || die "no package besides the root to check"
deps="$(go list -f '{{.ImportPath}} {{join .Deps " "}}' "${pkgs[@]}")"
offenders="$(awk '/wailsapp/ {print $1}' <<<"$deps")"
if [[ -n "$offenders" ]]; then
	printf 'imports github.com/wailsapp/... (directly or indirectly): %s\n' "$offenders" >&2
	die "only the root package may import wails"
fi
say "ok: ${#pkgs[@]} packages"

begin "go test -race -count=1 ./..."
# The real agents have a step of their own (next), even where a cache has them installed.
AGENTDESK_INTEROP=0 go test "${GO_TEST_FLAGS[@]}" -race -count=1 ./...

begin "interop: the real Claude Code and Codex against scripted model servers"
# About a minute and a half on 2 cores with a warm npm cache (install included); a clean
# machine fetches the two agents from the npm registry once (docs/development.md).
"$ROOT/scripts/interop.sh"

begin "frontend: svelte-check + vitest"
(cd frontend && npm run --silent check && npm run --silent test)

begin "e2e (headless Chromium vs dev-tag binary)"
"$ROOT/scripts/e2e.sh"

begin "package: the .deb installed and started from its menu entry"
"$ROOT/scripts/package-test.sh"

begin smoke
"$ROOT/scripts/smoke.sh"
