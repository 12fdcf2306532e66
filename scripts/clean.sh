#!/usr/bin/env bash
# `make clean`: build outputs only. Keeps node_modules and the Go caches, which are slow to refill,
# and frontend/dist/.gitkeep, which go:embed needs on a fresh checkout.
set -euo pipefail
# shellcheck source=scripts/env.sh
source "$(dirname "$0")/env.sh"

rm -rf build/bin build/e2e build/smoke.png build/smoke.log
find frontend/dist -mindepth 1 ! -name .gitkeep -exec rm -rf {} + 2>/dev/null || true
say "clean: removed build/bin, build/e2e, build/smoke.*, frontend/dist/*"
