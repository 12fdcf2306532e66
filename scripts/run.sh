#!/usr/bin/env bash
# `make run`: set up, build the production binary, run it. Arguments go to the app.
set -euo pipefail
# shellcheck source=scripts/env.sh
source "$(dirname "$0")/env.sh"

ensure_setup
"$ROOT/scripts/build.sh"

if [[ -n "${DISPLAY:-}" || -n "${WAYLAND_DISPLAY:-}" ]]; then
	exec "$BIN_PROD" "$@"
fi
# Without a display GTK panics ("failed to init GTK"); Xvfb at least lets it start.
say "run: no \$DISPLAY or \$WAYLAND_DISPLAY: running under Xvfb, the window will not be visible"
exec xvfb-run "${XVFB_ARGS[@]}" "$BIN_PROD" "$@"
