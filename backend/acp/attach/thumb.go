package attach

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	_ "image/gif" // decoders for image.Decode
	_ "image/jpeg"
	"image/png"
)

// ThumbSize bounds the width and height of an image attachment's thumbnail (in pixels).
const ThumbSize = 192

// thumbnail returns an image's size and a PNG data: URL of it scaled down to fit ThumbSize,
// for the transcript (live and saved) to show. Formats the standard library cannot decode
// (WebP, AVIF, ...) give zeros and "": the transcript then shows a plain image chip.
func thumbnail(data []byte) (width, height int, dataURL string) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return 0, 0, ""
	}
	if int64(cfg.Width)*int64(cfg.Height) > 100_000_000 {
		return cfg.Width, cfg.Height, "" // not worth decoding for a thumbnail
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return cfg.Width, cfg.Height, ""
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, scaleDown(img, ThumbSize)); err != nil {
		return cfg.Width, cfg.Height, ""
	}
	return cfg.Width, cfg.Height, "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())
}

// scaleDown fits img into limit×limit pixels (never enlarging), averaging up to 4×4 samples of the
// source box under each destination pixel: cheap, and smooth enough for a thumbnail.
func scaleDown(img image.Image, limit int) image.Image {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w <= limit && h <= limit {
		return img
	}
	tw, th := limit, limit
	if w >= h {
		th = max(1, h*limit/w)
	} else {
		tw = max(1, w*limit/h)
	}
	out := image.NewNRGBA(image.Rect(0, 0, tw, th))
	for y := 0; y < th; y++ {
		y0, y1 := b.Min.Y+y*h/th, b.Min.Y+(y+1)*h/th
		for x := 0; x < tw; x++ {
			x0, x1 := b.Min.X+x*w/tw, b.Min.X+(x+1)*w/tw
			var r, g, bl, a, n uint32
			for sy := 0; sy < 4; sy++ {
				py := y0 + (y1-y0)*sy/4
				for sx := 0; sx < 4; sx++ {
					px := x0 + (x1-x0)*sx/4
					cr, cg, cb, ca := img.At(px, py).RGBA()
					r, g, bl, a, n = r+cr, g+cg, bl+cb, a+ca, n+1
				}
			}
			// Averaged premultiplied values, converted back to non-premultiplied for NRGBA.
			out.Set(x, y, color.RGBA64{uint16(r / n), uint16(g / n), uint16(bl / n), uint16(a / n)})
		}
	}
	return out
}
