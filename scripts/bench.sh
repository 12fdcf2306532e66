#!/usr/bin/env bash
# `make bench`: the Go benchmarks, then the end-to-end perf script (e2e/perf.mjs: the real backend
# and a scripted agent streaming into the UI in headless Chromium, under Xvfb like scripts/e2e.sh).
# Both print numbers as `name: value unit` lines (and ratios against an in-run baseline); they are
# not timed assertions. The perf script fails only if the transcript never shows what it was sent.
# Extra arguments go to `go test` (e.g. -count=3); E2E_GREP=<regexp> picks perf measurements
# (stream, frame p95, open), BENCH_PERF=0 skips the perf script, BENCH_GO=0 the Go benchmarks.
# Last it prints the performance budget (scripts/budget, docs/performance.md) with this run's
# values and whether each meets its goal (scripts/benchsum); the whole output is kept in
# build/bench.log.
set -euo pipefail
# shellcheck source=scripts/env.sh
source "$(dirname "$0")/env.sh"

ensure_setup
log="$ROOT/build/bench.log"
mkdir -p "$ROOT/build"
: >"$log"
if [[ "${BENCH_GO:-1}" != 0 ]]; then
	# -p 1: one package's benchmarks at a time. In parallel (go test's default) a benchmark shares
	# the cores with another package's, which moved the engine's ratios to its baselines by half.
	go test "${GO_TEST_FLAGS[@]}" -p 1 -run '^$' -bench . -benchmem "$@" ./backend/... | tee -a "$log"
fi
if [[ "${BENCH_PERF:-1}" != 0 ]]; then
	"$ROOT/scripts/build.sh" --dev
	say "bench: node e2e/perf.mjs under Xvfb"
	with_session_bus xvfb-run "${XVFB_ARGS[@]}" node e2e/perf.mjs | tee -a "$log"
fi
say "bench: the budget (docs/performance.md) with this run's values"
go run "${GO_TEST_FLAGS[@]}" ./scripts/benchsum "$log"
