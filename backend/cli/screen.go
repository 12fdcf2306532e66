package cli

import (
	"encoding/json"
	"io"
	"os"

	"agentdesk/backend/agents"
)

// A command never writes on the process's streams itself: Run hands every command a Stdio whose
// Out and Err are screens, so whatever a command prints, now or in a command added later, goes
// through safeText whether or not it holds an agent's words. The few writers that must not be
// filtered say so by asking for the stream under the screen (rawStream): the ACP protocol that
// demo-agent speaks, the transcript printer of run and chat (which filters the agent's text
// itself and writes agentdesk's own colours around it), and the terminal checks of chat.

// screen is one of the process's output streams as a command sees it: every Write is filtered
// through safeText, then masked (masked), then written on the stream. JSON bypasses the filter,
// which would change the text, and is escaped instead (writeJSON). Safe for concurrent use when
// the stream is.
type screen struct {
	raw  io.Writer          // the process's stream
	mask *agents.MaskWriter // between the filter and raw when masking, else nil
}

var _ io.Writer = (*screen)(nil)

// newScreen is w as a screen (w itself when it is one already).
func newScreen(w io.Writer) *screen {
	if s, ok := w.(*screen); ok {
		return s
	}
	return &screen{raw: w}
}

// Write writes safeText(p) and reports all of p written when that succeeds.
func (s *screen) Write(p []byte) (int, error) {
	return safeWriter{s.sink()}.Write(p)
}

// sink is where the filtered text goes: the masker, or the stream.
func (s *screen) sink() io.Writer {
	if s.mask != nil {
		return s.mask
	}
	return s.raw
}

// masked is a screen on the same stream that also masks m's secret values, after the filter (so
// an escape sequence planted in the middle of a value cannot hide it from the masker). Flush it
// when done.
func (s *screen) masked(m *agents.Masker) *screen {
	return &screen{raw: s.raw, mask: m.Writer(s.raw)}
}

// Flush writes what the masker holds back (the end of a text that could begin a secret).
func (s *screen) Flush() error {
	if s.mask == nil {
		return nil
	}
	return s.mask.Flush()
}

// rawStream is the stream under w when w is a screen, else w: for writers that filter the
// agent's text themselves or must write bytes unchanged (see the comment at the top).
func rawStream(w io.Writer) io.Writer {
	if s, ok := w.(*screen); ok {
		return s.raw
	}
	return w
}

// sameFile reports whether a and b are open files of one file (one terminal, one pipe): what is
// written on one is read beside what is written on the other.
func sameFile(a, b io.Writer) bool {
	fa, okA := a.(*os.File)
	fb, okB := b.(*os.File)
	if !okA || !okB {
		return false
	}
	sa, errA := fa.Stat()
	sb, errB := fb.Stat()
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

// writeJSON writes v as one line of JSON on w through escapeJSON: a script decodes the text
// exactly, and a terminal is shown no control character. On a screen it is masked, not filtered.
func writeJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return writeJSONText(w, append(b, '\n'))
}

// writeJSONText writes JSON text j on w as writeJSON does.
func writeJSONText(w io.Writer, j []byte) error {
	if s, ok := w.(*screen); ok {
		w = s.sink()
	}
	_, err := w.Write(escapeJSON(j))
	return err
}
