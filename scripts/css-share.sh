#!/usr/bin/env bash
# The share of the frontend's Svelte lines that are CSS (issue 30: at most 35 %): the lines strictly
# inside <style>…</style> over all lines, summed over frontend/src/**/*.svelte. A file's lines are
# counted as split('\n') does (a last newline ends an empty line), as the issue's figures were.
# Usage: scripts/css-share.sh [-v]   (-v: each file's CSS and total lines too, largest CSS last)
set -euo pipefail
cd "$(dirname "$0")/../frontend/src"
find . -name '*.svelte' -print0 | sort -z | xargs -0 awk -v verbose="${1:-}" '
  FNR == 1 { if (NR > 1) file(); name = FILENAME; inside = 0; css = 0 }
  /<\/style>/ { inside = 0 }
  inside { css++ }
  /<style[ >]/ { inside = 1 }
  { lines[name] = FNR }
  function file() { cssOf[name] = css; total += lines[name] + 1; allcss += css; files++ }
  END {
    file()
    if (verbose == "-v") for (f in cssOf) printf "%5d %5d %s\n", cssOf[f], lines[f] + 1, f | "sort -n"
    close("sort -n")
    printf "CSS %d of %d Svelte lines (%.1f %%) in %d files\n", allcss, total, 100 * allcss / total, files
  }'
