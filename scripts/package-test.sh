#!/usr/bin/env bash
# The .deb as a person gets it (docs/development.md, "Packaging"): build it (WebKitGTK 4.1, as
# `make package` does), install it with apt (which fetches what it depends on), and start the app
# from its menu entry's command under Xvfb: the real-window smoke test runs that binary. The
# package is removed again afterwards.
#
# An agentdesk already installed on this machine is never replaced: the smoke test then runs the
# package's binary unpacked into a temp folder instead (its libraries are still checked with ldd).
# Installing needs root or password-less sudo, as setup.sh does.
# Output ends with the smoke test's "smoke: N passed, N failed" line.
set -euo pipefail
# shellcheck source=scripts/env.sh
source "$(dirname "$0")/env.sh"

PACKAGE_WEBKIT=4.1 "$ROOT/scripts/package-deb.sh"
deb="$(ls -t "$ROOT"/build/bin/agentdesk_*.deb | head -n1)"
depends="$(dpkg-deb -f "$deb" Depends)"
[[ "$depends" == *libwebkit2gtk-4.1-0* ]] || die "package-test: $deb depends on '$depends', not on WebKitGTK 4.1"

sudo=()
if [[ "$(id -u)" -ne 0 ]]; then
	command -v sudo >/dev/null 2>&1 || die "package-test: not root and no sudo: run as root to install the package"
	sudo=(sudo -n)
fi
tmp="$(mktemp -d)"
installed=0
cleanup() {
	if ((installed)); then
		"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive dpkg -r agentdesk >/dev/null || say "package-test: could not remove the agentdesk package"
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

if [[ "$(dpkg-query -W -f='${db:Status-Status}' agentdesk 2>/dev/null)" == installed ]]; then
	say "package-test: agentdesk is installed on this machine and is left as it is: testing the package unpacked"
	dpkg-deb -x "$deb" "$tmp/root"
	entry="$tmp/root/usr/share/applications/agentdesk.desktop"
	root="$tmp/root"
else
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 -qq install -y \
		--no-install-recommends "$deb" >/dev/null || die "package-test: apt-get install $deb failed"
	installed=1
	entry=/usr/share/applications/agentdesk.desktop
	root=""
fi
[[ -f "$entry" ]] || die "package-test: the package has no menu entry ($entry)"
command -v desktop-file-validate >/dev/null 2>&1 && desktop-file-validate "$entry"
# The menu entry's command, as a launcher runs it (field codes such as %U dropped).
exec_line="$(sed -n 's/^Exec=//p' "$entry" | head -n1)"
bin="$root$(awk '{print $1}' <<<"$exec_line")"
[[ -x "$bin" ]] || die "package-test: the menu entry runs '$exec_line', which is not an executable"
if missing="$(ldd "$bin" | grep 'not found')"; then
	die "package-test: $bin lacks libraries: $missing"
fi
say "package-test: starting the menu entry's command ($exec_line) from $(basename "$deb")"
AGENTDESK_BIN="$bin" "$ROOT/scripts/smoke.sh"
