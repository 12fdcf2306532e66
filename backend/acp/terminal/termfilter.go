package terminal

import (
	"bytes"
	"strings"
	"unicode/utf8"

	vt "github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/parser"
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
// Where each sequence begins and ends is the business of a real VT parser (charmbracelet/x/ansi,
// after the DEC VT500 state machine), which keeps its state between reads, so a sequence cut
// between two reads is still recognised whole. The filter only decides what each piece becomes.
// C1 controls, as bytes or as the runes U+0080–U+009F, never reach text or display.
type escFilter struct {
	p             *vt.Parser
	text, display *[]byte // where the parser's handlers write, during write
	seq           []byte  // the CSI sequence so far, while it may still be SGR
	long          bool    // the CSI sequence outgrew maxSGR: it is dropped whatever it is
}

// maxSGR bounds a colour sequence the card keeps; longer CSI sequences are dropped.
const maxSGR = 64

// write filters p, appending to text and display.
func (f *escFilter) write(p []byte, text, display *[]byte) {
	if f.p == nil {
		f.start()
	}
	if f.p.State() == parser.GroundState && plain(p) { // most output: no parsing needed
		*text = append(*text, p...)
		*display = append(*display, p...)
		return
	}
	f.text, f.display = text, display
	defer func() { f.text, f.display = nil, nil }()
	for _, c := range p {
		before := f.p.State()
		f.p.Advance(c)
		switch after := f.p.State(); {
		case after == parser.CsiEntryState && before != parser.CsiEntryState:
			f.seq, f.long = append(f.seq[:0], 0x1b, '['), false // ESC [ or the C1 byte CSI
		case (after == parser.CsiParamState || after == parser.CsiIntermediateState ||
			after == parser.CsiEntryState) && c >= 0x20 && c <= 0x3f:
			if len(f.seq) < maxSGR {
				f.seq = append(f.seq, c)
			} else {
				f.long = true
			}
		}
	}
}

// plain reports whether p is whole UTF-8 text the parser would pass on unchanged: no control
// character but newline, tab and carriage return, no DEL and no C1 control.
func plain(p []byte) bool {
	for i, c := range p {
		if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') || c == 0x7f || (c == 0xc2 && i+1 < len(p) && p[i+1] <= 0x9f) {
			return false
		}
	}
	return utf8.Valid(p)
}

// start makes the parser. It keeps no control string's data (OSC, DCS and the rest are
// dropped whole), so an endless one costs no memory.
func (f *escFilter) start() {
	f.p = vt.NewParser()
	f.p.SetDataSize(1)
	both := func(b ...byte) {
		*f.text = append(*f.text, b...)
		*f.display = append(*f.display, b...)
	}
	f.p.SetHandler(vt.Handler{
		Print: func(r rune) {
			if r >= 0x80 && r <= 0x9f {
				return // a C1 control written as UTF-8, which some terminals obey
			}
			both(utf8.AppendRune(nil, r)...)
		},
		Execute: func(b byte) {
			// Bell, backspace, form feed, shift in/out and the rest are dropped.
			if b == '\n' || b == '\r' || b == '\t' {
				both(b)
			}
		},
		HandleCsi: func(cmd vt.Cmd, _ vt.Params) {
			if cmd.Final() == 'm' && cmd.Prefix() == 0 && cmd.Intermediate() == 0 && !f.long && sgrParams(f.seq[2:]) {
				*f.display = append(append(*f.display, f.seq...), 'm')
			}
		},
	})
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

// PlainText is terminal text without its colour sequences: what a card's output reads as
// (for search and Markdown).
func PlainText(s string) string {
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
