#!/usr/bin/env bash
# Build build/bin/agentdesk_<version>_<arch>.deb with dpkg-deb (docs/development.md): Wails 2.9.2's
# Linux packaging step is a no-op, and AppImage tooling is not reachable from our machines.
#
# Usage: scripts/package-deb.sh [--no-build]
#   --no-build  package the existing build/bin/agentdesk (and agentdesk-supervisor) instead of
#               building them first
# Env: VERSION (default: info.productVersion in wails.json); PACKAGE_WEBKIT: 4.1 (the default:
# WebKitGTK 4.1, which Debian 12, Debian 13 and Ubuntu 24.04 all ship) or 4.0 (only Debian 12 and
# older can install that one). It sets env.sh's WEBKIT_TAG for this build, whatever the caller's.
set -euo pipefail
case "${PACKAGE_WEBKIT:-4.1}" in
4.1) export WEBKIT_TAG=webkit2_41 ;;
4.0) export WEBKIT_TAG= ;;
*)
	echo "package-deb.sh: PACKAGE_WEBKIT is '$PACKAGE_WEBKIT': use 4.1 or 4.0" >&2
	exit 2
	;;
esac
# shellcheck source=scripts/env.sh
source "$(dirname "$0")/env.sh"

build=1
case "${1:-}" in
"") ;;
--no-build) build=0 ;;
*) die "usage: scripts/package-deb.sh [--no-build]" ;;
esac

if ((build)); then
	# setup.sh itself, not ensure_setup: a caller's setup was for its own WebKitGTK, maybe not this one.
	"$ROOT/scripts/setup.sh"
	"$ROOT/scripts/build.sh"
fi
[[ -x "$BIN_PROD" ]] || die "$BIN_PROD is missing: run scripts/build.sh"
# agentdesk runs every agent and terminal command under it, and looks for it next to itself.
SUPERVISOR="$(dirname "$BIN_PROD")/agentdesk-supervisor"
[[ -x "$SUPERVISOR" ]] || die "$SUPERVISOR is missing: run scripts/build.sh"
command -v dpkg-deb >/dev/null 2>&1 || die "dpkg-deb not found (apt-get install dpkg-dev)"

VERSION="${VERSION:-$(sed -n 's/^[[:space:]]*"productVersion":[[:space:]]*"\([^"]*\)".*/\1/p' wails.json)}"
[[ "$VERSION" =~ ^[0-9][A-Za-z0-9.+~-]*$ ]] || die "bad or missing version '$VERSION' (set VERSION or info.productVersion in wails.json)"
ARCH="$(dpkg --print-architecture)"
deb="$ROOT/build/bin/agentdesk_${VERSION}_${ARCH}.deb"

pkg="$(mktemp -d)"
trap 'rm -rf "$pkg"' EXIT
chmod 0755 "$pkg" # mktemp -d makes it 0700, and it becomes the package's "./" entry
install -Dm0755 "$BIN_PROD" "$pkg/usr/bin/agentdesk"
install -Dm0755 "$SUPERVISOR" "$pkg/usr/bin/agentdesk-supervisor"
install -Dm0644 build/linux/agentdesk.desktop "$pkg/usr/share/applications/agentdesk.desktop"
install -Dm0644 build/appicon.png "$pkg/usr/share/icons/hicolor/1024x1024/apps/agentdesk.png"
# Most launchers and docks look for a size up to 256; hicolor has no 1024 entry in older themes.
install -d "$pkg/usr/share/icons/hicolor/256x256/apps"
/usr/bin/convert build/appicon.png -resize 256x256 -strip "$pkg/usr/share/icons/hicolor/256x256/apps/agentdesk.png"

install -d "$pkg/DEBIAN"
cat >"$pkg/DEBIAN/control" <<CONTROL
Package: agentdesk
Version: $VERSION
Architecture: $ARCH
Maintainer: agentdesk developers <dev@agentdesk.invalid>
Installed-Size: $(du -sk --exclude=DEBIAN "$pkg" | cut -f1)
Depends: libgtk-3-0, $WEBKIT_RUNTIME_PKG
Section: devel
Priority: optional
Description: desktop client for AI coding agents
 agentdesk runs AI coding agents that speak the Agent Client Protocol (ACP),
 shows their transcripts, tool calls and permission requests, and keeps a
 searchable history of sessions.
CONTROL

rm -f "$deb"
# --root-owner-group: files owned by root in the package even when built as a normal user.
dpkg-deb --root-owner-group -Zxz --build "$pkg" "$deb" >/dev/null
say "package: ${deb#"$ROOT"/} ($(du -h "$deb" | cut -f1), depends on $WEBKIT_RUNTIME_PKG)"
