#!/usr/bin/env bash
# End-to-end tests (docs/development.md): headless Chromium drives the UI served by the dev-tag
# binary's embedded dev server, with the real Go backend behind it. The dev binary also opens
# its GTK window, hence Xvfb. e2e/run.mjs prints "N passed, N failed" and exits non-zero on failure.
# Extra arguments go to e2e/run.mjs; E2E_GREP=<regexp> selects tests (see e2e/lib/harness.mjs).
set -euo pipefail
# shellcheck source=scripts/env.sh
source "$(dirname "$0")/env.sh"

ensure_setup
[[ -f e2e/run.mjs ]] || die "e2e/run.mjs is missing (the e2e test entry point)"

# test.sh has just built frontend/dist; otherwise build it here too.
"$ROOT/scripts/build.sh" --dev ${AGENTDESK_PREBUILT:+--no-frontend}

say "e2e: node e2e/run.mjs under Xvfb"
with_session_bus xvfb-run "${XVFB_ARGS[@]}" node e2e/run.mjs "$@"
