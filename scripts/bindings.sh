#!/usr/bin/env bash
# Regenerate frontend/wailsjs (TS bindings + JS runtime) from the bound Go methods.
# The frontend build and CI don't run the Wails CLI, so these files are committed; --check
# fails when they drift from the Go code (docs/development.md).
#
# Usage: scripts/bindings.sh [--check]
set -euo pipefail
# shellcheck source=scripts/env.sh
source "$(dirname "$0")/env.sh"

check=0
case "${1:-}" in
"") ;;
--check) check=1 ;;
*) die "usage: scripts/bindings.sh [--check]" ;;
esac

ensure_setup # installs the pinned Wails CLI

# Compiles package main with the `bindings` tag, so frontend/dist must exist (at least its
# committed .gitkeep). Output is noisy and only interesting on failure.
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
gen=(wails generate module -nocolour ${WEBKIT_TAG:+-tags "$WEBKIT_TAG"})
# The generator runs the app binary (built with the `bindings` tag). It opens no window, but an app
# that checks for a display before wails.Run would refuse to start, so give it one when we have none.
if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
	gen=(xvfb-run "${XVFB_ARGS[@]}" "${gen[@]}")
fi
if ! "${gen[@]}" >"$log" 2>&1; then
	cat "$log" >&2
	die "wails generate module failed"
fi

if ((check)); then
	git rev-parse --is-inside-work-tree >/dev/null 2>&1 || die "--check needs a git work tree"
	untracked="$(git ls-files --others --exclude-standard -- frontend/wailsjs)"
	if ! git diff --quiet -- frontend/wailsjs || [[ -n "$untracked" ]]; then
		git --no-pager diff --stat -- frontend/wailsjs >&2
		[[ -z "$untracked" ]] || { echo "untracked (new, not committed):"; echo "$untracked"; } >&2
		die "bindings out of date: run make bindings and commit"
	fi
	say "bindings: frontend/wailsjs is up to date"
else
	say "bindings: regenerated frontend/wailsjs"
fi
