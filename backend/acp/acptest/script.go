package acptest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// Script is a fake agent written as a list of steps, run in order against whatever client is on
// the other end of stdin/stdout. Unlike an SDK-built agent it can send anything: malformed lines,
// odd ids, unknown update kinds, any error code. It runs in-process (Serve(s.Run)) or from the
// binary (`agentdesk demo-agent --script FILE`, a JSON array of steps).
type Script []Step

// Step is one action. Exactly one of Expect, Reply, Error, Send, Update, Stream, Call or Exit is set.
type Step struct {
	// Expect reads messages until a request or notification with this method arrives (others
	// are skipped); a request becomes "the current request" for Reply and Error.
	Expect string `json:"expect,omitempty"`
	// Reply answers the current request with this result; a sessionId in it is remembered.
	// With Oldest it answers the oldest expected request not yet answered instead (a prompt
	// queueing agent answers the first prompt once a second one has arrived).
	Reply  json.RawMessage `json:"reply,omitempty"`
	Oldest bool            `json:"oldest,omitempty"`
	// Error answers the current request with this error object.
	Error json.RawMessage `json:"error,omitempty"`
	// Send writes one line: a JSON string is written verbatim (it may be malformed), any other
	// JSON value is written compactly.
	Send json.RawMessage `json:"send,omitempty"`
	// Update sends session/update with this update for the remembered session id.
	Update json.RawMessage `json:"update,omitempty"`
	// Stream sends many message chunks as fast as the client reads them (see Stream).
	Stream *Stream `json:"stream,omitempty"`
	// Call sends a request with Params (sessionId added when absent) under ID (default: a
	// counter) and waits for its response, which Want, when set, must contain as a substring.
	Call   string          `json:"call,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	ID     json.RawMessage `json:"id,omitempty"`
	Want   string          `json:"want,omitempty"`
	// Exit ends the agent with this status after writing Stderr to its stderr.
	Exit   *int   `json:"exit,omitempty"`
	Stderr string `json:"stderr,omitempty"`
	// When, if set, plays the step only when the agent's environment has this variable set
	// (non-empty), or with a leading "!" only when it has not: one script then plays an agent
	// before and after a login that put a key in its environment.
	When string `json:"when,omitempty"`
}

// applies reports whether the step's When holds in this process's environment.
func (st Step) applies() bool {
	if st.When == "" {
		return true
	}
	if name, ok := strings.CutPrefix(st.When, "!"); ok {
		return os.Getenv(name) == ""
	}
	return os.Getenv(st.When) != ""
}

// Stream generates Chunks session/update chunk notifications spread evenly over Messages
// messages (the first Chunks%Messages messages get one more), for floods and benchmarks without
// a giant script. Each message has its own messageId ("s<step>-m<k>"), so each becomes its own
// entry. Kinds are the chunks' update kinds, cycled per message (default agent_message_chunk);
// Texts are the chunks' texts, cycled per chunk (default "chunk {n} "), where "{n}" becomes the
// chunk's number from 1 to Chunks. Without Every the lines are written through one buffer,
// flushed at the end; with Every (a Go duration such as "1ms") each chunk is written on its own
// and followed by that pause, like an agent streaming at a steady pace.
type Stream struct {
	Messages int      `json:"messages"`
	Chunks   int      `json:"chunks"`
	Kinds    []string `json:"kinds,omitempty"`
	Texts    []string `json:"texts,omitempty"`
	Every    string   `json:"every,omitempty"`
}

// LoadScript reads a JSON array of steps.
func LoadScript(path string) (Script, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read script: %w", err)
	}
	var s Script
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("script %s: %w", path, err)
	}
	return s, nil
}

// ExitError is returned by Run for an Exit step.
type ExitError struct {
	Code   int
	Stderr string
}

var _ error = (*ExitError)(nil)

func (e *ExitError) Error() string { return fmt.Sprintf("exit %d: %s", e.Code, e.Stderr) }

type message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

// Run plays the script. It returns nil at the end of the steps (after draining stdin until EOF,
// as an agent waiting for more would), an *ExitError for an Exit step, or an error describing
// the step that could not be played.
func (s Script) Run(stdin io.Reader, stdout io.Writer) error {
	in := bufio.NewReader(stdin)
	var current json.RawMessage // id of the request being answered
	var open []json.RawMessage  // ids of the expected requests not answered yet, oldest first
	answered := func(id json.RawMessage) {
		for i, o := range open {
			if string(o) == string(id) {
				open = append(open[:i], open[i+1:]...)
				return
			}
		}
	}
	session, calls := "", 0
	write := func(v []byte) error {
		_, err := stdout.Write(append(v, '\n'))
		return err
	}
	for i, st := range s {
		if !st.applies() {
			continue
		}
		var err error
		switch {
		case st.Expect != "":
			var m message
			if m, err = readUntil(in, func(m message) bool { return m.Method == st.Expect }); err == nil && m.ID != nil {
				current = m.ID // a notification (session/cancel) leaves the prompt current
				open = append(open, m.ID)
			}
		case st.Reply != nil:
			var r struct {
				SessionID string `json:"sessionId"`
			}
			if json.Unmarshal(st.Reply, &r) == nil && r.SessionID != "" {
				session = r.SessionID
			}
			id := current
			if st.Oldest && len(open) > 0 {
				id = open[0]
			}
			answered(id)
			err = write(mustJSON(map[string]any{"jsonrpc": "2.0", "id": id, "result": st.Reply}))
		case st.Error != nil:
			answered(current)
			err = write(mustJSON(map[string]any{"jsonrpc": "2.0", "id": current, "error": st.Error}))
		case st.Send != nil:
			var verbatim string
			if json.Unmarshal(st.Send, &verbatim) == nil {
				err = write([]byte(verbatim))
			} else {
				err = write(mustJSON(st.Send))
			}
		case st.Update != nil:
			err = writeUpdate(stdout, session, st.Update)
		case st.Stream != nil:
			err = st.Stream.write(stdout, session, i+1)
		case st.Call != "":
			calls++
			id := st.ID
			if id == nil {
				id = json.RawMessage(strconv.Itoa(calls))
			}
			params := map[string]any{}
			if st.Params != nil {
				if err = json.Unmarshal(st.Params, &params); err != nil {
					break
				}
			}
			if _, ok := params["sessionId"]; !ok {
				params["sessionId"] = session
			}
			if err = write(mustJSON(map[string]any{"jsonrpc": "2.0", "id": id, "method": st.Call, "params": params})); err != nil {
				break
			}
			var m message
			m, err = readUntil(in, func(m message) bool { return m.Method == "" && string(m.ID) == string(id) })
			got := string(m.Result) + string(m.Error)
			if err == nil && st.Want != "" && !strings.Contains(got, st.Want) {
				err = fmt.Errorf("response %s does not contain %q", got, st.Want)
			}
		case st.Exit != nil:
			return &ExitError{Code: *st.Exit, Stderr: st.Stderr}
		default:
			err = errors.New("empty step")
		}
		if err != nil {
			return fmt.Errorf("script step %d: %w", i+1, err)
		}
	}
	_, _ = io.Copy(io.Discard, in)
	return nil
}

func (g *Stream) write(stdout io.Writer, session string, step int) error {
	if g.Messages < 1 || g.Chunks < g.Messages {
		return fmt.Errorf("stream needs 1 <= messages <= chunks, got %d messages, %d chunks", g.Messages, g.Chunks)
	}
	var every time.Duration
	if g.Every != "" {
		var err error
		if every, err = time.ParseDuration(g.Every); err != nil {
			return fmt.Errorf("stream every: %w", err)
		}
	}
	kinds, texts := g.Kinds, g.Texts
	if len(kinds) == 0 {
		kinds = []string{"agent_message_chunk"}
	}
	if len(texts) == 0 {
		texts = []string{"chunk {n} "}
	}
	out := bufio.NewWriter(stdout)
	n := 0
	for k := range g.Messages {
		per := g.Chunks / g.Messages
		if k < g.Chunks%g.Messages {
			per++
		}
		id := fmt.Sprintf("s%d-m%d", step, k+1)
		for range per {
			n++
			text := strings.ReplaceAll(texts[(n-1)%len(texts)], "{n}", strconv.Itoa(n))
			line := mustJSON(map[string]any{"jsonrpc": "2.0", "method": "session/update",
				"params": map[string]any{"sessionId": session, "update": map[string]any{
					"sessionUpdate": kinds[k%len(kinds)], "messageId": id,
					"content": map[string]any{"type": "text", "text": text}}}})
			if _, err := out.Write(append(line, '\n')); err != nil {
				return err
			}
			if every > 0 {
				if err := out.Flush(); err != nil {
					return err
				}
				time.Sleep(every)
			}
		}
	}
	return out.Flush()
}

// readUntil reads lines until one decodes to a message that match accepts.
func readUntil(in *bufio.Reader, match func(message) bool) (message, error) {
	for {
		line, err := in.ReadBytes('\n')
		var m message
		if json.Unmarshal(line, &m) == nil && match(m) {
			return m, nil
		}
		if err != nil {
			return message{}, fmt.Errorf("the client closed the connection: %w", err)
		}
	}
}

// writeUpdate writes a session/update notification around update as it is, in three writes
// instead of marshalling it again: the update of a huge line (the huge-line benchmark and test)
// costs the agent no copy, so what they measure is the client's. An update with line breaks (a
// script file written by hand) is compacted first, as one line must hold it.
func writeUpdate(stdout io.Writer, session string, update json.RawMessage) error {
	if bytes.ContainsAny(update, "\r\n") {
		var b bytes.Buffer
		if err := json.Compact(&b, update); err != nil {
			return err
		}
		update = b.Bytes()
	}
	head := fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":%s,"update":`, mustJSON(session))
	for _, piece := range [][]byte{head, update, []byte("}}\n")} {
		if _, err := stdout.Write(piece); err != nil {
			return err
		}
	}
	return nil
}

func mustJSON(v any) []byte {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(err) // only values built from decoded JSON reach here
	}
	return raw
}
