package acp_test

// Helpers of BenchmarkEngineVsBaselines: the scripted update stream and the three contenders
// that consume it (our engine, acp-go-sdk's client connection, a bare decode loop).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/schema"
)

const (
	benchUpdates    = 200_000
	benchMarkAt     = 50_000 // the update with this number (from 1) is the 50k mark
	benchSessionID  = "bench-session"
	benchMarkTool   = "bench_mark_50k" // tool_call_update completed: update benchMarkAt
	benchFinalTool  = "bench_sentinel" // tool_call_update completed: the last update
	benchSDKBatch   = 1_000            // lines per batch for the throttled SDK feed
	benchHangBound  = 5 * time.Minute  // only a hung contender reaches it; never a timing assertion
	benchToolIDs    = 5                // the handful of tool ids the stream updates
	benchPreambleID = 2                // responses to initialize (id 1) and session/new (id 2)
)

// benchFeed is the agent's whole stdout, generated once: the responses to initialize and
// session/new, then benchUpdates session/update notifications.
type benchFeed struct {
	data     []byte
	preamble [benchPreambleID]int // end offset of each response line
	lineEnd  []int                // end offset (after '\n') of update i (from 0)

	chunks, thoughts, tools int // how many of each update kind
	textAtMark, textTotal   int // chunk text bytes up to the mark, in all
}

var (
	benchFeedOnce sync.Once
	benchFeedData *benchFeed
)

// sharedBenchFeed generates the stream once per process (about 25 MB).
func sharedBenchFeed() *benchFeed {
	benchFeedOnce.Do(func() { benchFeedData = newBenchFeed(benchUpdates) })
	return benchFeedData
}

var benchWords = []string{
	"the", "function", "returns", "an", "error", "when", "`ctx`", "is", "done;", "so", "we", "retry",
	"with", "backoff", "\n\n", "- ", "**Note**:", "\"quoted\"", "path/to/file.go", "→", "naïve", "café",
	"\t", "if err != nil {", "}", "`go test ./...`", "passes", "(42 tests)", "and", "then", "I'll",
	"update", "the", "README", "—", "done.", "<tag>", "a\\b", "100%", "日本語", "émoji 🎉",
}

// newBenchFeed writes n updates: mostly agent_message_chunk in runs, some runs of
// agent_thought_chunk, and tool_call_update for a handful of tool ids between runs. Update
// benchMarkAt and the last update are completed tool_call_updates of sentinel tool ids.
func newBenchFeed(n int) *benchFeed {
	f := &benchFeed{lineEnd: make([]int, 0, n)}
	var buf bytes.Buffer
	buf.Grow(n * 200) // about 190 bytes a line
	buf.WriteString(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":false}}}` + "\n")
	f.preamble[0] = buf.Len()
	buf.WriteString(`{"jsonrpc":"2.0","id":2,"result":{"sessionId":"` + benchSessionID + `"}}` + "\n")
	f.preamble[1] = buf.Len()

	rng := rand.New(rand.NewPCG(1, 2))
	text := func() string {
		var b strings.Builder
		for w := 1 + rng.IntN(5); w > 0; w-- {
			b.WriteString(benchWords[rng.IntN(len(benchWords))])
			b.WriteByte(' ')
		}
		return b.String()
	}
	quote := func(s string) string {
		q, _ := json.Marshal(s)
		return string(q)
	}
	prefix := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + benchSessionID + `","update":`
	emit := func(update string) {
		buf.WriteString(prefix)
		buf.WriteString(update)
		buf.WriteString("}}\n")
		f.lineEnd = append(f.lineEnd, buf.Len())
		if len(f.lineEnd) == benchMarkAt {
			f.textAtMark = f.textTotal
		}
	}
	chunk := func(kind string) {
		t := text()
		f.textTotal += len(t)
		emit(`{"sessionUpdate":"` + kind + `","content":{"type":"text","text":` + quote(t) + `}}`)
	}
	tool := func(id, status, extra string) {
		emit(`{"sessionUpdate":"tool_call_update","toolCallId":"` + id + `","status":"` + status + `"` + extra + `}`)
	}
	next := func() bool { return len(f.lineEnd) < n-1 } // the last line is the final sentinel
	for next() {
		if rng.IntN(2) == 0 { // a thought run
			for k := 3 + rng.IntN(28); k > 0 && next(); k-- {
				if len(f.lineEnd) == benchMarkAt-1 {
					tool(benchMarkTool, "completed", `,"title":"50k mark"`)
					f.tools++
					continue
				}
				chunk("agent_thought_chunk")
				f.thoughts++
			}
		}
		for k := 5 + rng.IntN(116); k > 0 && next(); k-- { // a message run
			if len(f.lineEnd) == benchMarkAt-1 {
				tool(benchMarkTool, "completed", `,"title":"50k mark"`)
				f.tools++
				continue
			}
			chunk("agent_message_chunk")
			f.chunks++
		}
		for k := 1 + rng.IntN(3); k > 0 && next(); k-- { // tool progress
			if len(f.lineEnd) == benchMarkAt-1 {
				tool(benchMarkTool, "completed", `,"title":"50k mark"`)
				f.tools++
				continue
			}
			id := "tool_" + strconv.Itoa(1+rng.IntN(benchToolIDs))
			extra := `,"content":[{"type":"content","content":{"type":"text","text":` + quote(text()) + `}}]`
			if rng.IntN(4) == 0 {
				extra += `,"title":` + quote("Run "+text())
			}
			tool(id, "in_progress", extra)
			f.tools++
		}
	}
	tool(benchFinalTool, "completed", `,"title":"last update"`)
	f.tools++
	f.data = buf.Bytes()
	return f
}

// updatesBytes is the part of the stream after the two responses.
func (f *benchFeed) updatesBytes() []byte { return f.data[f.preamble[1]:] }

// markOffset is the end of the benchMarkAt-th update in data.
func (f *benchFeed) markOffset() int { return f.lineEnd[benchMarkAt-1] }

// ---------------------------------------------------------------------------------------------
// Our engine: a real Session over an in-process transport whose stdout is the feed.

// benchEmitter counts the events the pump delivers and signals the two sentinel tool cards.
type benchEmitter struct {
	entries, chunks atomic.Int64
	mark, done      chan struct{}
}

func newBenchEmitter() *benchEmitter {
	return &benchEmitter{mark: make(chan struct{}), done: make(chan struct{})}
}

func (e *benchEmitter) Emit(ev acp.Event) {
	switch ev.Kind {
	case acp.EventChunk:
		e.chunks.Add(1)
	case acp.EventEntry:
		e.entries.Add(1)
		if ev.Entry.Kind == acp.KindTool && ev.Entry.Status == acp.StatusCompleted {
			switch ev.Entry.ToolCallID {
			case benchMarkTool:
				close(e.mark)
			case benchFinalTool:
				close(e.done)
			}
		}
	}
}

// benchAgent answers initialize and session/new from the feed, then streams the updates,
// pausing after the 50k mark until gate is closed when gate is not nil. It ends on stdin EOF.
func benchAgent(f *benchFeed, gate <-chan struct{}) acptest.Agent {
	return func(stdin io.Reader, stdout io.Writer) error {
		br := bufio.NewReader(stdin)
		for i, want := range []string{schema.MethodInitialize, schema.MethodSessionNew} {
			line, err := br.ReadBytes('\n')
			if err != nil {
				return err
			}
			var req struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if err := json.Unmarshal(line, &req); err != nil || req.Method != want || string(req.ID) != strconv.Itoa(i+1) {
				return fmt.Errorf("bench agent: request %d is %s (id %s), want %s with id %d", i+1, req.Method, req.ID, want, i+1)
			}
			start := 0
			if i > 0 {
				start = f.preamble[i-1]
			}
			if _, err := stdout.Write(f.data[start:f.preamble[i]]); err != nil {
				return err
			}
		}
		rest := f.data[f.preamble[1]:]
		if gate != nil {
			cut := f.markOffset() - f.preamble[1]
			if _, err := stdout.Write(rest[:cut]); err != nil {
				return err
			}
			<-gate
			rest = rest[cut:]
		}
		if _, err := stdout.Write(rest); err != nil {
			return err
		}
		_, _ = io.Copy(io.Discard, br) // until the session closes our stdin
		return nil
	}
}

// benchEngineRun is one drive of a Session through the whole feed.
type benchEngineRun struct {
	dur             time.Duration // Start → final sentinel delivered
	entries, chunks int64         // entry and chunk events delivered
}

// runBenchEngine drives one Session through the whole feed. onMark, when set, runs once the 50k
// mark has been delivered, with the agent paused there; onDone, when set, runs once the last
// update has been delivered, before the session is closed. Neither is timed.
func runBenchEngine(f *benchFeed, onMark, onDone func()) (benchEngineRun, error) {
	em := newBenchEmitter()
	var gate chan struct{}
	if onMark != nil {
		gate = make(chan struct{})
	}
	s := acp.NewSession(acp.Config{
		ID: "bench", AgentName: "bench agent", Cwd: os.TempDir(), Emitter: em, Logf: func(string, ...any) {},
		Launch: func(context.Context) (acp.Transport, error) { return acptest.Serve(benchAgent(f, gate)), nil },
	})
	defer s.Close()
	hang := time.NewTimer(benchHangBound)
	defer hang.Stop()
	t0 := time.Now()
	if err := s.Start(context.Background()); err != nil {
		return benchEngineRun{}, err
	}
	var paused time.Duration
	if onMark != nil {
		select {
		case <-em.mark:
		case <-hang.C:
			return benchEngineRun{}, errors.New("engine: the 50k mark never arrived")
		}
		p0 := time.Now()
		onMark()
		paused = time.Since(p0)
		close(gate)
	}
	select {
	case <-em.done:
	case <-hang.C:
		return benchEngineRun{}, fmt.Errorf("engine: the final update never arrived (%d entry, %d chunk events)", em.entries.Load(), em.chunks.Load())
	}
	run := benchEngineRun{dur: time.Since(t0) - paused, entries: em.entries.Load(), chunks: em.chunks.Load()}
	if onDone != nil {
		onDone()
	}
	return run, nil
}

// ---------------------------------------------------------------------------------------------
// Baseline (a): acp-go-sdk's ClientSideConnection with a no-op client.

// sdkNopClient counts SessionUpdate calls; expect returns a channel closed once the count
// reaches a target.
type sdkNopClient struct {
	mu     sync.Mutex
	n      int
	target int
	reach  chan struct{}
}

func (c *sdkNopClient) SessionUpdate(context.Context, acpsdk.SessionNotification) error {
	c.mu.Lock()
	c.n++
	if c.reach != nil && c.n >= c.target {
		close(c.reach)
		c.reach = nil
	}
	c.mu.Unlock()
	return nil
}

func (c *sdkNopClient) expect(target int) <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan struct{})
	if c.n >= target {
		close(ch)
		return ch
	}
	c.target, c.reach = target, ch
	return ch
}

func (c *sdkNopClient) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

func (c *sdkNopClient) ReadTextFile(context.Context, acpsdk.ReadTextFileRequest) (acpsdk.ReadTextFileResponse, error) {
	return acpsdk.ReadTextFileResponse{}, nil
}
func (c *sdkNopClient) WriteTextFile(context.Context, acpsdk.WriteTextFileRequest) (acpsdk.WriteTextFileResponse, error) {
	return acpsdk.WriteTextFileResponse{}, nil
}
func (c *sdkNopClient) RequestPermission(context.Context, acpsdk.RequestPermissionRequest) (acpsdk.RequestPermissionResponse, error) {
	return acpsdk.RequestPermissionResponse{}, nil
}
func (c *sdkNopClient) CreateTerminal(context.Context, acpsdk.CreateTerminalRequest) (acpsdk.CreateTerminalResponse, error) {
	return acpsdk.CreateTerminalResponse{}, nil
}
func (c *sdkNopClient) KillTerminal(context.Context, acpsdk.KillTerminalRequest) (acpsdk.KillTerminalResponse, error) {
	return acpsdk.KillTerminalResponse{}, nil
}
func (c *sdkNopClient) TerminalOutput(context.Context, acpsdk.TerminalOutputRequest) (acpsdk.TerminalOutputResponse, error) {
	return acpsdk.TerminalOutputResponse{}, nil
}
func (c *sdkNopClient) ReleaseTerminal(context.Context, acpsdk.ReleaseTerminalRequest) (acpsdk.ReleaseTerminalResponse, error) {
	return acpsdk.ReleaseTerminalResponse{}, nil
}
func (c *sdkNopClient) WaitForTerminalExit(context.Context, acpsdk.WaitForTerminalExitRequest) (acpsdk.WaitForTerminalExitResponse, error) {
	return acpsdk.WaitForTerminalExitResponse{}, nil
}

// sdkLogCapture is a slog handler that keeps the SDK's error records (nothing is printed).
type sdkLogCapture struct {
	mu   *sync.Mutex
	errs *[]string
}

func newSDKLogCapture() sdkLogCapture { return sdkLogCapture{mu: new(sync.Mutex), errs: new([]string)} }

func (h sdkLogCapture) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelError }
func (h sdkLogCapture) Handle(_ context.Context, r slog.Record) error {
	msg := r.Message
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "err" || a.Key == "capacity" {
			msg += " " + a.Key + "=" + a.Value.String()
		}
		return true
	})
	h.mu.Lock()
	*h.errs = append(*h.errs, msg)
	h.mu.Unlock()
	return nil
}
func (h sdkLogCapture) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h sdkLogCapture) WithGroup(string) slog.Handler      { return h }

func (h sdkLogCapture) all() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), *h.errs...)
}

// sdkConn wires a ClientSideConnection to a pipe the caller writes the feed into.
func sdkConn() (*acpsdk.ClientSideConnection, *sdkNopClient, sdkLogCapture, *io.PipeReader, *io.PipeWriter) {
	pr, pw := io.Pipe()
	client := &sdkNopClient{}
	conn := acpsdk.NewClientSideConnection(client, io.Discard, pr)
	logs := newSDKLogCapture()
	conn.SetLogger(slog.New(logs))
	return conn, client, logs, pr, pw
}

// runSDKUnthrottled writes the whole feed at once. It returns "" when every update was
// delivered, else why the connection gave up, with how many updates had been delivered.
func runSDKUnthrottled(f *benchFeed) (failure string, delivered int) {
	conn, client, logs, pr, pw := sdkConn()
	written := make(chan struct{})
	go func() {
		defer close(written)
		_, _ = pw.Write(f.data)
		pw.Close()
	}()
	all := client.expect(len(f.lineEnd))
	hang := time.NewTimer(benchHangBound)
	defer hang.Stop()
	select {
	case <-all:
	case <-conn.Done():
		// Done also closes on a clean EOF; the queue then still drains, so look at the log.
		for _, msg := range logs.all() {
			if strings.Contains(msg, "overflow") || strings.Contains(msg, "closing connection") {
				failure = msg
			}
		}
		if failure == "" {
			select {
			case <-all:
			case <-hang.C:
				failure = "the connection closed and stopped delivering"
			}
		}
	case <-hang.C:
		failure = "no progress"
	}
	delivered = client.count()
	pr.CloseWithError(errors.New("benchmark over")) // unblocks the writer if the SDK stopped reading
	<-written
	<-conn.Done()
	return failure, delivered
}

// runSDKBatched writes the feed benchSDKBatch update lines at a time and waits until the
// client has seen each batch before writing the next, so the SDK's queue never overflows.
func runSDKBatched(f *benchFeed) (time.Duration, error) {
	conn, client, logs, pr, pw := sdkConn()
	defer func() {
		pw.Close()
		<-conn.Done()
		pr.Close()
	}()
	hang := time.NewTimer(benchHangBound)
	defer hang.Stop()
	t0 := time.Now()
	start := 0
	for end := benchSDKBatch; start < len(f.data); end += benchSDKBatch {
		if end > len(f.lineEnd) {
			end = len(f.lineEnd)
		}
		stop := f.lineEnd[end-1]
		reached := client.expect(end)
		if _, err := pw.Write(f.data[start:stop]); err != nil {
			return 0, err
		}
		select {
		case <-reached:
		case <-conn.Done():
			return 0, fmt.Errorf("sdk batched: connection closed after %d updates: %v", client.count(), logs.all())
		case <-hang.C:
			return 0, fmt.Errorf("sdk batched: stuck at %d updates", client.count())
		}
		start = stop
	}
	return time.Since(t0), nil
}

// ---------------------------------------------------------------------------------------------
// Baseline (b): the floor — split lines and decode the envelope and the update, nothing else.

type floorEnvelope struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}

type floorParams struct {
	SessionID string `json:"sessionId"`
	Update    struct {
		SessionUpdate string          `json:"sessionUpdate"`
		ToolCallID    string          `json:"toolCallId"`
		Status        string          `json:"status"`
		Title         *string         `json:"title"`
		Content       json.RawMessage `json:"content"`
	} `json:"update"`
}

type floorBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type floorToolContent struct {
	Type    string     `json:"type"`
	Content floorBlock `json:"content"`
}

// runFloor reads the feed from a pipe and returns how many updates it decoded.
func runFloor(f *benchFeed) (time.Duration, int, error) {
	pr, pw := io.Pipe()
	go func() {
		_, _ = pw.Write(f.data)
		pw.Close()
	}()
	defer pr.Close()
	t0 := time.Now()
	br := bufio.NewReaderSize(pr, 64<<10)
	n := 0
	var long []byte
	for {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long, line...)
			continue
		}
		if long != nil {
			line = append(long, line...)
			long = nil
		}
		if len(line) > 0 {
			var env floorEnvelope
			if jErr := json.Unmarshal(line, &env); jErr != nil {
				return 0, n, jErr
			}
			if env.Method == schema.MethodSessionUpdate {
				var p floorParams
				if jErr := json.Unmarshal(env.Params, &p); jErr != nil {
					return 0, n, jErr
				}
				if p.Update.SessionUpdate == schema.UpdateToolCallUpdate {
					var c []floorToolContent
					if len(p.Update.Content) > 0 {
						if jErr := json.Unmarshal(p.Update.Content, &c); jErr != nil {
							return 0, n, jErr
						}
					}
				} else {
					var c floorBlock
					if jErr := json.Unmarshal(p.Update.Content, &c); jErr != nil {
						return 0, n, jErr
					}
				}
				n++
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, n, err
		}
	}
	return time.Since(t0), n, nil
}

// peakRSSMiB reads VmHWM (the peak resident set) of this process; -1 when unknown.
func peakRSSMiB() float64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 64)
			if err != nil {
				return -1
			}
			return kb / 1024
		}
	}
	return -1
}
