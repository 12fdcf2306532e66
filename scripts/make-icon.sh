#!/usr/bin/env bash
# Regenerates build/appicon.png (1024x1024) with ImageMagick: a rounded-square indigo gradient
# with a white chat bubble holding a ">_" prompt. Shapes only, so no font can be missing.
# The PNG is committed; run this only to change the design.
set -euo pipefail
# shellcheck source=scripts/env.sh
source "$(dirname "$0")/env.sh"

convert=/usr/bin/convert # by path: another `convert` may come first on PATH (docs/development.md)
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

"$convert" -size 1024x1024 -define gradient:angle=135 gradient:'#5B4DEB'-'#201A6E' "$tmp/grad.png"
"$convert" -size 1024x1024 xc:none -fill white -draw "roundrectangle 64,64 959,959 210,210" "$tmp/mask.png"
"$convert" "$tmp/grad.png" "$tmp/mask.png" -alpha off -compose CopyOpacity -composite "$tmp/bg.png"
"$convert" -size 1024x1024 xc:none -fill white \
	-draw "roundrectangle 232,262 792,682 100,100" -draw "polygon 318,640 296,792 480,672" "$tmp/bubble.png"
"$convert" "$tmp/bubble.png" \( +clone -background '#0B0830' -shadow 45x20+0+18 \) +swap \
	-background none -layers merge +repage -gravity center -extent 1024x1024 "$tmp/bubble_sh.png"
"$convert" -size 1024x1024 xc:none -stroke '#3A2FB0' -strokewidth 58 -fill none \
	-draw "stroke-linecap round stroke-linejoin round polyline 372,394 474,472 372,550" \
	-stroke none -fill '#3A2FB0' -draw "roundrectangle 522,522 662,580 29,29" "$tmp/prompt.png"
"$convert" "$tmp/bg.png" "$tmp/bubble_sh.png" -composite "$tmp/prompt.png" -composite \
	-depth 8 -strip build/appicon.png
say "wrote build/appicon.png"
