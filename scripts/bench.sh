#!/usr/bin/env bash
# `make bench`: Go benchmarks. They print numbers (and ratios against an in-run baseline);
# they are not timed assertions. Extra arguments go to `go test` (e.g. -count=3).
set -euo pipefail
# shellcheck source=scripts/env.sh
source "$(dirname "$0")/env.sh"

ensure_setup
go test "${GO_TEST_FLAGS[@]}" -run '^$' -bench . -benchmem "$@" ./backend/...
