package acp_test

import (
	"context"
	"io"
	"runtime"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
)

// BenchmarkHugeLine sends one agent_message_chunk of 32 MB on one line and reports how many
// bytes the engine allocates per byte of that line (connection → decoding → transcript →
// events), and the peak of the Go heap's objects (live, or dead and not yet swept) as a multiple
// of the line. A hostile or careless agent may send such a line; each copy the engine makes of
// it is memory the machine must have. Figures only: nothing is asserted.
func BenchmarkHugeLine(b *testing.B) {
	benchHugeLine(b, strings.Repeat("word ", 32<<20/5))
}

// BenchmarkHugeLineEscaped is BenchmarkHugeLine with a text of lines and quotes, as a file's
// content or a long answer in Markdown is: its JSON string has escapes to undo.
func BenchmarkHugeLineEscaped(b *testing.B) {
	benchHugeLine(b, strings.Repeat("say \"word\"\n", 32<<20/13))
}

func benchHugeLine(b *testing.B, text string) {
	sc := acptest.OneMessageTurn(text)
	line := 0 // the update's bytes, all but some 70 of the line
	for _, st := range sc {
		line += len(st.Update)
	}
	var perByte, peakRatio float64
	for b.Loop() {
		ended := make(chan struct{})
		em := acp.EmitterFunc(func(ev acp.Event) {
			if ev.Kind == acp.EventTurnEnd {
				close(ended)
			}
		})
		s := acp.NewSession(acp.Config{ID: "h", AgentName: "huge", Cwd: b.TempDir(), Emitter: em, Logf: func(string, ...any) {},
			Launch: func(context.Context) (acp.Transport, error) {
				return acptest.Serve(func(in io.Reader, out io.Writer) error { return sc.Run(in, out) }), nil
			}})
		if err := s.Start(context.Background()); err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		peak := acptest.HeapPeak()
		if _, err := s.Prompt("go"); err != nil {
			b.Fatal(err)
		}
		<-ended
		top := peak()
		runtime.ReadMemStats(&after)
		perByte = float64(after.TotalAlloc-before.TotalAlloc) / float64(line)
		peakRatio = float64(top-before.HeapAlloc) / float64(line)
		s.Close()
	}
	b.ReportMetric(perByte, "alloc_bytes/line_byte")
	b.ReportMetric(peakRatio, "peak_heap/line")
}
