package terminal

import (
	"strings"
	"testing"
)

// The filter gives the same text and display however the output is split into reads: a
// sequence cut between two reads is still recognised (and kept or dropped) whole.
func TestEscFilterSplitsAnywhere(t *testing.T) {
	in := "a\x1b[1;31mred\x1b[0m\x1b]0;title\x07\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\x1b[?25l\x1b[>4;2m\x1b[2J\x1b(B\x1b7é\x07\x08\tz\r\n" +
		"\x1bPdcs\x1b\\\x1b[" + strings.Repeat("1;", 40) + "m!"
	wantText := "aredlinké\tz\r\n!"
	wantDisp := "a\x1b[1;31mred\x1b[0mlinké\tz\r\n!"
	for size := 1; size <= len(in); size++ {
		var f escFilter
		var text, disp []byte
		for i := 0; i < len(in); i += size {
			f.write([]byte(in[i:min(i+size, len(in))]), &text, &disp)
		}
		if string(text) != wantText || string(disp) != wantDisp {
			t.Fatalf("reads of %d bytes: text %q, display %q", size, text, disp)
		}
	}
}

// overwrite shows a line rewritten with carriage returns as it ended, keeping the colours set
// on the way; "\r\n" line ends become "\n".
func TestOverwrite(t *testing.T) {
	for in, want := range map[string]string{
		"plain\n":                             "plain\n",
		"a\r\n b\r\n":                         "a\n b\n",
		"10%\r50%\r100%\ndone":                "100%\ndone",
		"\x1b[32m10%\r50%\x1b[0m\r":           "\x1b[32m50%\x1b[0m",
		"spin |\rspin /\r":                    "spin /",
		"old text\r\x1b[1mnew\x1b[0m\nnext\r": "\x1b[1mnew\x1b[0m\nnext",
	} {
		if got := overwrite(in); got != want {
			t.Errorf("overwrite(%q) = %q, want %q", in, got, want)
		}
	}
}

// A display buffer over its limit never starts inside a colour sequence; text is cut as before.
func TestOutputBufferCutsAroundColours(t *testing.T) {
	const in = "ab\x1b[1;31mred\x1b[0m!"
	// Where kept output may start: before or after a character, never inside a sequence.
	cuts := map[int]bool{0: true, 1: true, 2: true, 9: true, 10: true, 11: true, 12: true, 16: true, 17: true}
	for limit := 0; limit <= len(in); limit++ {
		b := NewBuffer(limit)
		b.Write([]byte(in))
		got := string(b.Bytes(true))
		if !strings.HasSuffix(in, got) || !cuts[len(in)-len(got)] || len(got) > limit {
			t.Errorf("limit %d keeps %q", limit, got)
		}
	}
	b := NewBuffer(3)
	b.Write([]byte("x1mred"))
	if got := string(b.Bytes(true)); got != "red" {
		t.Fatalf("plain text cut at %q", got)
	}
}

// A C1 control never reaches the agent or the card, neither as its 8-bit byte nor as its UTF-8
// rune (U+009B is CSI to some terminals); what follows it stays text.
func TestEscFilterDropsC1(t *testing.T) {
	text, disp := filterTerminal([]byte("a\u009b31mb\x9b2Jc\u0085d"))
	if string(text) != "a31mbcd" || string(disp) != string(text) {
		t.Fatalf("text %q, display %q", text, disp)
	}
}

// BenchmarkEscFilter: coloured build output (a test runner's), through the filter in 4 KiB reads
// as a PTY gives it. The figure is throughput (MB/s).
func BenchmarkEscFilter(b *testing.B) {
	benchFilter(b, "\x1b[32mok\x1b[0m  \tagentdesk/backend/acp\t17.534s \x1b[2m(cached)\x1b[0m  é\r\n")
}

// BenchmarkEscFilterPlain: output without escapes (a compiler's, a log), the common case.
func BenchmarkEscFilterPlain(b *testing.B) {
	benchFilter(b, "ok  \tagentdesk/backend/acp\t17.534s (cached)  é\n")
}

// benchFilter filters 1 MiB of line repeated, in 4 KiB reads.
func benchFilter(b *testing.B, line string) {
	in := []byte(strings.Repeat(line, (1<<20)/len(line)))
	b.SetBytes(int64(len(in)))
	var text, disp []byte
	for b.Loop() {
		var f escFilter
		text, disp = text[:0], disp[:0]
		for i := 0; i < len(in); i += 4096 {
			f.write(in[i:min(i+4096, len(in))], &text, &disp)
		}
	}
}
