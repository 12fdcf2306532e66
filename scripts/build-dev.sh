#!/usr/bin/env bash
# The dev-tag binary build/bin/agentdesk-dev (embedded dev server) that the e2e tests drive.
set -euo pipefail
exec "$(dirname "$0")/build.sh" --dev "$@"
