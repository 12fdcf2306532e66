#!/usr/bin/env bash
# Real-window self-test of the PRODUCTION binary (docs/development.md): the app runs under Xvfb in
# real WebKitGTK with native IPC. With AGENTDESK_SELFTEST=<report> set, the app drives its own UI,
# writes "ok ..." / "FAIL ..." lines to the report and quits. Protocol with this script:
#   1. the app appends a line "ready-for-screenshot" when the window shows something worth seeing;
#   2. this script takes build/smoke.png (`import -window root`) and creates "<report>.shot-done";
#   3. the app finishes its report and quits (it must quit on its own, also if no shot-done comes).
# The binary's exit code alone proves nothing (an untagged build prints an error and exits 0), so
# we count report lines: a missing or empty report is a failure.
#
# Env: AGENTDESK_BIN=<binary> tests that binary instead of building (e.g. /usr/bin/agentdesk from
# the .deb); SMOKE_TIMEOUT (seconds, default 60).
# Output ends with exactly "smoke: N passed, N failed"; exit status 1 if anything failed.
set -euo pipefail
# shellcheck source=scripts/env.sh
source "$(dirname "$0")/env.sh"

TIMEOUT="${SMOKE_TIMEOUT:-60}"
SHOT="$ROOT/build/smoke.png"
APPLOG="$ROOT/build/smoke.log"

# --- inner half: runs inside xvfb-run, so DISPLAY points at the private Xvfb ------------------
if [[ "${1:-}" == --inner ]]; then
	bin="$2" report="$3"
	notes="$report.script" # failures seen by this script, counted like report lines
	"$bin" >"$APPLOG" 2>&1 &
	pid=$!
	deadline=$((SECONDS + TIMEOUT))
	shot=0
	killed=0
	# Poll (not sleep-and-hope): screenshot request, app exit, or the deadline.
	while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do
		if ((!shot)) && grep -q '^ready-for-screenshot' "$report" 2>/dev/null; then
			import -window root "$SHOT" || echo "FAIL screenshot: import -window root failed" >>"$notes"
			touch "$report.shot-done"
			shot=1
		fi
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		[[ -s "$report" ]] && what="" || what=" and had written no report (see build/smoke.png)"
		echo "FAIL smoke: the app was still running after ${TIMEOUT}s$what" >>"$notes"
		# No screenshot yet: take one anyway, it usually shows where the self-test got stuck.
		((shot)) || import -window root "$SHOT" || true
		killed=1
		kill -TERM "$pid" 2>/dev/null || true
		for _ in {1..50}; do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$pid" 2>/dev/null || true
	fi
	status=0
	wait "$pid" || status=$?
	if ((status != 0 && !killed)); then
		echo "FAIL smoke: the app exited with status $status" >>"$notes"
	fi
	if ((!shot)) && [[ -s "$report" ]]; then
		echo "FAIL screenshot: the app never wrote 'ready-for-screenshot'" >>"$notes"
	fi
	exit 0
fi

# --- outer half -------------------------------------------------------------------------------
bin="${AGENTDESK_BIN:-}"
if [[ -z "$bin" ]]; then
	ensure_setup
	# test.sh has just built it; otherwise build here.
	[[ -n "${AGENTDESK_PREBUILT:-}" ]] || "$ROOT/scripts/build.sh"
	bin="$BIN_PROD"
fi
[[ -x "$bin" ]] || die "$bin is not an executable"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
report="$tmp/report.txt"
mkdir -p "$ROOT/build"
rm -f "$SHOT" "$APPLOG"

say "smoke: ${bin#"$ROOT"/} under Xvfb (timeout ${TIMEOUT}s)"
# Own temp DB and XDG dirs: never touch the developer's history. Own session bus (SingleInstanceLock).
rc=0
# The self-test session runs the Demo agent in an empty project folder, at a quick pace.
mkdir -p "$tmp/project"
AGENTDESK_SELFTEST="$report" AGENTDESK_DB="$tmp/smoke.db" \
	AGENTDESK_SELFTEST_CWD="$tmp/project" AGENTDESK_DEMO_PACE="${AGENTDESK_DEMO_PACE:-20ms}" \
	XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config" \
	with_session_bus timeout -k 5 $((TIMEOUT + 30)) \
	xvfb-run "${XVFB_ARGS[@]}" "$ROOT/scripts/smoke.sh" --inner "$bin" "$report" || rc=$?
((rc == 0)) || echo "FAIL smoke: xvfb-run/timeout exited with status $rc" >>"$report.script"

passed=0
failed=0
lines=()
[[ -f "$report" ]] && mapfile -t lines <"$report"
[[ -f "$report.script" ]] && mapfile -t -O "${#lines[@]}" lines <"$report.script"
for line in "${lines[@]}"; do
	case "$line" in
	"ok "* | ok) passed=$((passed + 1)) ;;
	"FAIL "* | FAIL) failed=$((failed + 1)) ;;
	esac
	say "$line"
done
if [[ ! -f "$report" ]]; then
	# Counted once: a timeout line above already stands for the missing report.
	if ((failed == 0)); then
		say "FAIL smoke: no report written (does the binary handle AGENTDESK_SELFTEST?)"
		failed=1
	fi
elif ((passed + failed == 0)); then
	say "FAIL smoke: the report has no ok/FAIL lines"
	failed=$((failed + 1))
fi
[[ -f "$SHOT" ]] && say "smoke: screenshot ${SHOT#"$ROOT"/}"
if ((failed)) && [[ -f "$APPLOG" ]]; then
	say "--- app output, last 40 lines (${APPLOG#"$ROOT"/}) ---"
	tail -n 40 "$APPLOG" | sed 's/^/| /'
fi
say "smoke: $passed passed, $failed failed"
((failed == 0))
