package store

import (
	"bytes"
	"strconv"
	"strings"
	"time"
)

// The journal keeps consecutive messages of a session that share a direction and a method (a
// flood's session/update notifications) as one row, a run (0015_journal_runs.sql): a message
// per row made the journal most of what a flood cost the writer (a B-tree cell and an index
// entry each). Readers see messages as before: Messages and JournalEnds unpack the runs.

// maxRun is the most messages a run holds, and maxRunBytes about the most bytes: a row is
// read whole, and the inspector may want one message of it.
const (
	maxRun      = 64
	maxRunBytes = 256 << 10
)

// journalRun is one row of the journal: msgs share session, direction and method.
type journalRun struct {
	msgs []Message
}

// runsOf splits msgs (one session's, in order) into runs. A message whose JSON holds a line
// break (none that the connection reads or writes does) is a run of its own.
func runsOf(msgs []Message) []journalRun {
	var out []journalRun
	size := 0
	open := false // the last run may take the next message
	for i, m := range msgs {
		alone := bytes.IndexByte(m.JSON, '\n') >= 0
		if open && !alone {
			last := &out[len(out)-1]
			first := last.msgs[0]
			if m.Direction == first.Direction && m.Method == first.Method && len(last.msgs) < maxRun && size+len(m.JSON) < maxRunBytes {
				last.msgs = append(last.msgs, m)
				size += len(m.JSON) + 1
				continue
			}
		}
		out = append(out, journalRun{msgs: msgs[i : i+1 : i+1]})
		size, open = len(m.JSON), !alone
	}
	return out
}

// row is the run's columns: json, the first message's time and at_steps.
func (r journalRun) row() (json string, at int64, steps string) {
	at = millis(r.msgs[0].At)
	if len(r.msgs) == 1 {
		return string(r.msgs[0].JSON), at, ""
	}
	n := 0
	for _, m := range r.msgs {
		n += len(m.JSON) + 1
	}
	var b strings.Builder
	b.Grow(n)
	var s strings.Builder
	prev := at
	for i, m := range r.msgs {
		if i > 0 {
			b.WriteByte('\n')
			if i > 1 {
				s.WriteByte(',')
			}
			t := millis(m.At)
			s.WriteString(strconv.FormatInt(t-prev, 10))
			prev = t
		}
		b.Write(m.JSON)
	}
	return b.String(), at, s.String()
}

// unpackRun turns a row back into its messages: n of them, or as many lines as json holds
// when a redaction joined or split lines (a mask is plain text replacement). A step that does
// not read as a number counts as 0.
func unpackRun(m Message, n int, steps string) []Message {
	if n <= 1 && steps == "" {
		return []Message{m}
	}
	lines := bytes.Split(m.JSON, []byte{'\n'})
	out := make([]Message, len(lines))
	at := m.At
	for i, line := range lines {
		if i > 0 {
			var step string
			step, steps, _ = strings.Cut(steps, ",")
			ms, _ := strconv.ParseInt(step, 10, 64)
			at = at.Add(time.Duration(ms) * time.Millisecond)
		}
		out[i] = Message{SessionID: m.SessionID, Direction: m.Direction, Method: m.Method, JSON: line, At: at}
	}
	return out
}
