package acp

import (
	"bytes"
	"strings"
)

// A terminal's commands run on a PTY, so they write escape sequences: colours, but also cursor
// movement, titles (OSC 0/2), hyperlinks (OSC 8), bells and device queries. escFilter reads that
// stream once, as it arrives, and splits it in two:
//
//   - text, what the agent reads through terminal/output: the printable text with every escape
//     and control sequence removed (newlines, tabs and carriage returns stay);
//   - display, what the tool card shows: the same text with the colour sequences (SGR, CSI ... m)
//     kept, and nothing else, so the window never interprets cursor movement, links or titles
//     that an agent's command printed.
//
// It is a small state machine after the VT500 parser's states (ground, escape, CSI, control
// strings), enough to know where each sequence ends even when it is split across reads. Bytes of
// 0x80 and above are text (UTF-8), never C1 controls.
type escFilter struct {
	state escState
	seq   []byte // the CSI sequence so far, while it may still be SGR
	long  bool   // the CSI sequence outgrew maxSGR: it is dropped whatever it is
}

type escState uint8

const (
	escGround    escState = iota
	escEscape             // after ESC
	escInter              // ESC followed by intermediate bytes (ESC ( B, ESC # 8)
	escCSI                // ESC [ ...
	escString             // OSC, DCS, SOS, PM or APC body, up to BEL or ST
	escStringEsc          // ESC inside a control string: ST (ESC \) ends it
)

// maxSGR bounds a colour sequence the card keeps; longer CSI sequences are dropped.
const maxSGR = 64

// write filters p, appending to text and display.
func (f *escFilter) write(p []byte, text, display *[]byte) {
	for _, c := range p {
		switch f.state {
		case escGround:
			switch {
			case c == 0x1b:
				f.state = escEscape
			case c == '\n' || c == '\r' || c == '\t' || (c >= 0x20 && c != 0x7f):
				*text = append(*text, c)
				*display = append(*display, c)
			}
			// Other C0 controls (bell, backspace, form feed, shift in/out) and DEL are dropped.
		case escEscape:
			f.escape(c)
		case escInter:
			if c < 0x20 || c > 0x2f { // the final byte (or an abort) ends it
				f.state = escGround
				if c == 0x1b {
					f.state = escEscape
				}
			}
		case escCSI:
			f.csi(c, display)
		case escString:
			switch c {
			case 0x07, 0x18, 0x1a: // BEL ends an OSC (xterm); CAN and SUB abort any string
				f.state = escGround
			case 0x1b:
				f.state = escStringEsc
			}
		case escStringEsc:
			if c == '\\' {
				f.state = escGround
			} else {
				f.escape(c) // ESC began a new sequence, which aborts the string
			}
		}
	}
}

// escape handles the byte after an ESC.
func (f *escFilter) escape(c byte) {
	switch {
	case c == '[':
		f.state, f.seq, f.long = escCSI, append(f.seq[:0], 0x1b, '['), false
	case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
		f.state = escString
	case c == 0x1b:
		f.state = escEscape
	case c >= 0x20 && c <= 0x2f:
		f.state = escInter
	default: // a two-byte sequence (ESC 7, ESC M, ESC =) or an abort: dropped
		f.state = escGround
	}
}

// csi handles a byte of a CSI sequence; a complete SGR sequence goes to display.
func (f *escFilter) csi(c byte, display *[]byte) {
	switch {
	case c >= 0x20 && c <= 0x3f: // parameters and intermediates
		if len(f.seq) < maxSGR {
			f.seq = append(f.seq, c)
		} else {
			f.long = true
		}
	case c >= 0x40 && c <= 0x7e: // the final byte
		f.state = escGround
		if c == 'm' && !f.long && sgrParams(f.seq[2:]) {
			*display = append(append(*display, f.seq...), 'm')
		}
	case c == 0x1b:
		f.state = escEscape
	case c == 0x18 || c == 0x1a || c >= 0x80:
		f.state = escGround
	}
	// Other C0 controls inside a CSI sequence are executed by a terminal; here they are dropped.
}

// sgrParams reports whether p are the parameters of a plain SGR sequence (digits, ';' and ':'),
// not a private one (ESC [ > 4 m) that the card's renderer would misread.
func sgrParams(p []byte) bool {
	for _, c := range p {
		if (c < '0' || c > '9') && c != ';' && c != ':' {
			return false
		}
	}
	return true
}

// filterTerminal runs all of s through a fresh filter: output that arrived whole (an agent's own
// terminal, reported in _meta) or a test's.
func filterTerminal(s []byte) (text, display []byte) {
	var f escFilter
	f.write(s, &text, &display)
	return text, display
}

// CardText is what a tool card shows of raw terminal output s: colours kept, every other
// escape dropped, and lines rewritten with carriage returns shown as they ended (see overwrite).
func CardText(s string) string {
	_, display := filterTerminal([]byte(s))
	return overwrite(string(display))
}

// PlainTerminalText is terminal text without its colour sequences: what a card's output reads as
// (for search and Markdown).
func PlainTerminalText(s string) string {
	if !strings.Contains(s, "\x1b") {
		return s
	}
	text, _ := filterTerminal([]byte(s))
	return string(text)
}

// overwrite shows each line as a terminal leaves it when a command rewrites it with carriage
// returns (progress bars, spinners, "\r\n" line ends): the last part of the line that has
// visible text. The colour sequences of the parts before it are kept in front of it, so the
// colour in effect stays right.
func overwrite(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		if !strings.Contains(line, "\r") {
			b.WriteString(line)
			continue
		}
		parts := strings.Split(line, "\r")
		last := len(parts) - 1
		for last > 0 && !visible(parts[last]) {
			last--
		}
		for _, p := range parts[:last] {
			b.WriteString(sgrOnly(p))
		}
		b.WriteString(parts[last])
		for _, p := range parts[last+1:] {
			b.WriteString(sgrOnly(p))
		}
	}
	return b.String()
}

// visible reports whether display text s has any character outside its colour sequences.
func visible(s string) bool {
	for len(s) > 0 {
		i := strings.IndexByte(s, 0x1b)
		if i != 0 {
			return true
		}
		end := strings.IndexByte(s, 'm')
		if end < 0 {
			return true
		}
		s = s[end+1:]
	}
	return false
}

// sgrOnly is the colour sequences of display text s, without its text.
func sgrOnly(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, 0x1b)
		if i < 0 {
			return b.String()
		}
		end := strings.IndexByte(s[i:], 'm')
		if end < 0 {
			return b.String()
		}
		b.WriteString(s[i : i+end+1])
		s = s[i+end+1:]
	}
}

// skipPartialSGR moves start, a cut in buf, past a colour sequence it falls inside, so that
// kept display text never begins with the tail of one ("1mred"). Anything else is left as it is.
func skipPartialSGR(buf []byte, start int) int {
	from := max(0, start-maxSGR-2)
	i := bytes.LastIndexByte(buf[from:start], 0x1b)
	if i < 0 {
		return start
	}
	i += from
	if i+1 < start && (buf[i+1] != '[' || !sgrParams(buf[i+2:start])) {
		return start // not inside a colour sequence (or that one ended before the cut)
	}
	for j := start; j < len(buf) && j < start+maxSGR+2; j++ {
		switch c := buf[j]; {
		case c == 'm':
			return j + 1
		case i+1 == start && j == start && c == '[':
		case c < '0' || c > ';': // not a parameter byte (digits, ':' and ';' are 0x30-0x3b)
			return start
		}
	}
	return start
}
