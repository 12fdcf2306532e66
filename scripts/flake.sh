#!/usr/bin/env bash
# Flake hunt: runs the Go tests of each package COUNT times under the race detector, on one and
# on two CPUs, and prints each test that failed with how often, then "N passed, N failed"
# (runs of top-level tests). Run it after every change to goroutines, locks, channels, the event
# pump, process handling or the store's writer (docs: README, "Flaky tests").
#
#   scripts/flake.sh [PKG] [COUNT] [-- GO TEST ARGS]   e.g. scripts/flake.sh ./backend/acp 200 -- -run Close
#
# PKG defaults to ./... (each package in turn, so a hang names its package); COUNT to 200. The
# whole output of each package goes to build/flake/<pkg>.log. Exit status 1 when any test failed.
set -uo pipefail
# shellcheck source=scripts/env.sh
source "$(dirname "$0")/env.sh"

pkg="${1:-./...}"
count="${2:-200}"
shift $(($# > 2 ? 2 : $#))
[[ "${1:-}" == "--" ]] && shift
[[ "$count" =~ ^[0-9]+$ ]] || die "COUNT must be a whole number, not '$count'"

logs="$ROOT/build/flake"
mkdir -p "$logs"
passed=0
failed=0
mapfile -t pkgs < <(go list "${GO_TEST_FLAGS[@]}" "$pkg")
for p in "${pkgs[@]}"; do
	log="$logs/$(tr '/' '_' <<<"${p#agentdesk}" | sed 's/^_*//;s/^$/root/').log"
	say "==> $p (-race -count=$count -cpu 1,2)"
	go test "${GO_TEST_FLAGS[@]}" -race -count="$count" -cpu 1,2 -v -timeout 60m "$@" "$p" >"$log" 2>&1
	rc=$?
	# Top-level results only: subtests are indented.
	p_ok=$(grep -c '^--- PASS' "$log")
	p_bad=$(grep -c '^--- FAIL' "$log")
	passed=$((passed + p_ok))
	failed=$((failed + p_bad))
	if ((p_bad > 0)); then
		grep '^--- FAIL' "$log" | sed -E 's/ \([0-9.]+s\)$//' | sort | uniq -c | sed 's/^/   /'
	fi
	if ((rc != 0 && p_bad == 0)); then
		# A panic, a timeout, a build failure or a TestMain check: no "--- FAIL" line says it.
		failed=$((failed + 1))
		say "   $p failed outside a test (exit $rc): see $log"
		tail -n 15 "$log" | sed 's/^/   | /'
	fi
done
say "$passed passed, $failed failed"
((failed == 0))
