#!/usr/bin/env bash
# Build without the Wails CLI (docs/development.md): the frontend, then `go build` with the tags
# `wails build` would use. Same Go flags as every other script, so the build cache is shared.
#
# Usage: scripts/build.sh [--dev] [--no-frontend]
#   (default)      build/bin/agentdesk       desktop,production: what ships and what smoke.sh tests
#   --dev          build/bin/agentdesk-dev   dev tag: embedded dev server, for the e2e tests
#   --no-frontend  skip `npm run build` (the caller has just built frontend/dist)
# Either also builds build/bin/agentdesk-supervisor, which agentdesk runs every agent and
# terminal command under and finds next to itself (backend/supervise).
set -euo pipefail
# shellcheck source=scripts/env.sh
source "$(dirname "$0")/env.sh"

mode=prod
frontend=1
for arg in "$@"; do
	case "$arg" in
	--dev) mode=dev ;;
	--no-frontend) frontend=0 ;;
	-h | --help)
		sed -n '5,10p' "$ROOT/scripts/build.sh"
		exit 0
		;;
	*) die "unknown argument: $arg (see --help)" ;;
	esac
done

ensure_setup

# package main embeds frontend/dist, so the frontend must be built before any Go build.
if ((frontend)); then
	say "build: frontend (npm run build)"
	(cd frontend && npm run --silent build)
fi

if [[ "$mode" == dev ]]; then
	out="$BIN_DEV"
	flags=("${GO_DEV_FLAGS[@]}")
else
	out="$BIN_PROD"
	flags=("${GO_PROD_FLAGS[@]}")
fi
shown=""
for f in "${flags[@]}"; do [[ "$f" == *" "* ]] && shown+="\"$f\" " || shown+="$f "; done
say "build: go build ${shown}-o ${out#"$ROOT"/} ."
mkdir -p "$(dirname "$out")"
go build "${flags[@]}" -o "$out" .
say "build: ${out#"$ROOT"/} ($(du -h "$out" | cut -f1))"
# Under every agent and terminal command: a small binary of its own, static (it imports no cgo
# package, TestSupervisorLoadsNoSharedLibrary), so it pays for none of agentdesk's libraries.
supervisor="$(dirname "$out")/agentdesk-supervisor"
go build "${flags[@]}" -o "$supervisor" ./cmd/agentdesk-supervisor
say "build: ${supervisor#"$ROOT"/} ($(du -h "$supervisor" | cut -f1))"
