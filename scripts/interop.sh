#!/usr/bin/env bash
# `make interop`: the real agents offline. Installs Claude Code (claude-agent-acp) and Codex
# (codex-acp) at their pinned versions from the npm registry into a cache outside the repository
# (${AGENTDESK_INTEROP_CACHE:-${XDG_CACHE_HOME:-~/.cache}/agentdesk/interop}; once, then reused)
# and runs backend/interop: each agent driven through agentdesk's core against scripted model
# servers on 127.0.0.1. Nothing but the npm registry (at install) and 127.0.0.1 is reached.
#
#   scripts/interop.sh [GO TEST ARGS]   e.g. scripts/interop.sh -run 'TestStop/claude'
set -euo pipefail
# shellcheck source=scripts/env.sh
source "$(dirname "$0")/env.sh"

command -v go >/dev/null 2>&1 || die "Go is not on PATH: run make setup"
command -v node >/dev/null 2>&1 || die "Node.js is not on PATH: the agents run on it (make setup says which version)"
command -v npm >/dev/null 2>&1 || die "npm is not on PATH: it installs the agents"

began=$SECONDS
# AGENTDESK_INTEROP=1: install what is missing first, and fail (never skip) a test whose agent
# is not there.
AGENTDESK_INTEROP=1 go test "${GO_TEST_FLAGS[@]}" -race -count=1 -v -timeout 15m "$@" ./backend/interop/
say "interop: done in $((SECONDS - began)) s"
