package acp_test

import (
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/elicit"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// wireLog keeps every protocol line the session hands to Config.Journal.
type wireLog struct {
	mu    sync.Mutex
	lines []string // "<dir> <method> <line>"
	out   []string // the outbound lines as sent
}

func (j *wireLog) tap(dir jsonrpc.Direction, method string, line []byte) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.lines = append(j.lines, string(dir)+" "+method+" "+string(line))
	if dir == jsonrpc.Out {
		j.out = append(j.out, string(line))
	}
}

func (j *wireLog) text() string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return strings.Join(j.lines, "\n")
}

// sent returns the outbound lines that call or notify method, in order.
func (j *wireLog) sent(method string) []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	var out []string
	for _, l := range j.out {
		if strings.Contains(l, `"method":"`+method+`"`) {
			out = append(out, l)
		}
	}
	return out
}

// startElicit starts a scripted agent (after the handshake) with the elicitation modes given.
func startElicit(t *testing.T, modes acp.ElicitModes, steps string) (*acp.Session, *events, *wireLog) {
	t.Helper()
	sc := script(t, "["+handshake+steps+"]")
	j := &wireLog{}
	s, ev := runScript(t, sc, nil, func(c *acp.Config) { c.Journal, c.Elicit = j.tap, modes })
	return s, ev, j
}

// promptElicit starts a scripted agent with modes (startElicit) and prompts "go"; turn is what
// the agent does once the prompt has arrived.
func promptElicit(t *testing.T, modes acp.ElicitModes, turn string) (*acp.Session, *events, *wireLog) {
	t.Helper()
	s, ev, j := startElicit(t, modes, `{"expect":"session/prompt"},`+turn)
	if _, err := s.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	return s, ev, j
}

// elicitIn waits for the upsert of an elicitation entry in state.
func elicitIn(t *testing.T, ev *events, state string) *acp.Elicitation {
	t.Helper()
	e := ev.waitFor(t, "elicitation "+state, func(e acp.Event) bool {
		return e.Kind == acp.EventEntry && e.Entry.Kind == acp.KindElicitation && e.Entry.Elicitation.State == state
	})
	if e.Entry.ID != "elicitation-"+e.Entry.Elicitation.RequestID {
		t.Fatalf("entry id %q for request %s", e.Entry.ID, e.Entry.Elicitation.RequestID)
	}
	return e.Entry.Elicitation
}

const formSchema = `{"type":"object","properties":{
 "name":{"type":"string","title":"Name","minLength":2},
 "token":{"type":"string","format":"password"},
 "count":{"type":"integer","minimum":1,"maximum":10,"default":3},
 "colours":{"type":"array","items":{"anyOf":[{"const":"r","title":"Red"},{"const":"g","title":"Green"}]},"maxItems":1}},
 "required":["name"]}`

func TestElicitFormAccept(t *testing.T) {
	s, ev, j := promptElicit(t, acp.ElicitAll(), `
 {"call":"elicitation/create","id":"q-1","params":{"mode":"form","message":"Who are you?","requestedSchema":`+formSchema+`},
  "want":"{\"action\":\"accept\",\"content\":{\"colours\":[\"g\"],\"count\":4,\"name\":\"Ann\",\"token\":\"hunter22\"}}"},
 {"reply":{"stopReason":"end_turn"}}`)
	el := elicitIn(t, ev, acp.ElicitOpen)
	if el.RequestID != `"q-1"` || el.Mode != acp.ElicitModeForm || el.Message != "Who are you?" || !strings.Contains(string(el.Schema), `"password"`) {
		t.Fatalf("open elicitation %+v", el)
	}
	// The entry carries the form as Go parsed it: the window renders these, never the schema.
	// (The scripted agent re-encodes its params, so the properties arrive sorted.)
	fields, _ := json.Marshal(el.Fields)
	if want := `[{"name":"colours","type":"array","choices":[{"value":"r","title":"Red"},{"value":"g","title":"Green"}],"maxItems":1},` +
		`{"name":"count","type":"integer","minimum":1,"maximum":10,"default":3},` +
		`{"name":"name","type":"string","title":"Name","required":true,"minLength":2},` +
		`{"name":"token","type":"string","secret":true,"format":"password"}]`; string(fields) != want {
		t.Fatalf("open elicitation's fields\n got %s\nwant %s", fields, want)
	}
	for _, bad := range []struct {
		content map[string]any
		field   string
	}{
		{map[string]any{"token": "x"}, "name"},
		{map[string]any{"name": "A"}, "name"},
		{map[string]any{"name": "Ann", "count": 11.0}, "count"},
		{map[string]any{"name": "Ann", "count": 2.5}, "count"},
		{map[string]any{"name": "Ann", "colours": []any{"b"}}, "colours"},
		{map[string]any{"name": "Ann", "colours": []any{"r", "g"}}, "colours"},
		{map[string]any{"name": "Ann", "age": 3.0}, "age"},
		{map[string]any{"name": 7.0}, "name"},
	} {
		err := s.AnswerElicitation(el.RequestID, acp.ElicitAccept, bad.content)
		var fe *elicit.FieldError
		if !errors.Is(err, acp.ErrElicitationContent) || !errors.As(err, &fe) || fe.Field != bad.field {
			t.Fatalf("answer %v: %v, want a content error on %q", bad.content, err, bad.field)
		}
	}
	if err := s.AnswerElicitation(el.RequestID, "maybe", nil); !errors.Is(err, acp.ErrElicitationAction) {
		t.Fatalf("action maybe: %v", err)
	}
	if _, err := s.ElicitationURL(el.RequestID); !errors.Is(err, acp.ErrElicitationNotURL) {
		t.Fatalf("ElicitationURL of a form: %v", err)
	}
	good := map[string]any{"name": "Ann", "token": "hunter22", "count": 4.0, "colours": []any{"g"}}
	if err := s.AnswerElicitation(el.RequestID, acp.ElicitAccept, good); err != nil {
		t.Fatal(err)
	}
	done := elicitIn(t, ev, acp.ElicitAccepted)
	if done.AnsweredBy != acp.AnsweredByUser || done.Answer["token"] != elicit.SecretMask || done.Answer["name"] != "Ann" {
		t.Fatalf("accepted %+v", done)
	}
	if err := s.AnswerElicitation(el.RequestID, acp.ElicitAccept, good); !errors.Is(err, acp.ErrElicitationNotOpen) {
		t.Fatalf("second answer: %v, want not open", err)
	}
	if end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd)); end.StopReason != schema.StopEndTurn {
		t.Fatalf("turn ended %+v (the script checks what the agent got)", end)
	}
	// The secret went to the agent (the script's want) and nowhere else.
	all, _ := json.Marshal(ev.list())
	snap, _ := json.Marshal(s.Snapshot())
	for what, text := range map[string]string{"events": string(all), "snapshot": string(snap), "wireLog": j.text()} {
		if strings.Contains(text, "hunter22") {
			t.Fatalf("the secret is in the %s", what)
		}
	}
	if !strings.Contains(j.text(), `"token":"`+elicit.SecretMask+`"`) || !strings.Contains(j.text(), `"name":"Ann"`) {
		t.Fatalf("the wireLog lacks the masked reply:\n%s", j.text())
	}
}

func TestElicitFormDeclineAndCancel(t *testing.T) {
	s, ev, _ := promptElicit(t, acp.ElicitAll(), `
 {"call":"elicitation/create","id":1,"params":{"mode":"form","message":"Q1","requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}}},"want":"{\"action\":\"decline\"}"},
 {"call":"elicitation/create","id":2,"params":{"mode":"form","message":"Q2","requestedSchema":{"properties":{}}},"want":"{\"action\":\"cancel\"}"},
 {"reply":{"stopReason":"end_turn"}}`)
	for _, c := range []struct{ action, state string }{{acp.ElicitDecline, acp.ElicitDeclined}, {acp.ElicitCancel, acp.ElicitCancelled}} {
		el := elicitIn(t, ev, acp.ElicitOpen)
		if err := s.AnswerElicitation(el.RequestID, c.action, map[string]any{"ignored": true}); err != nil {
			t.Fatal(err)
		}
		if got := elicitIn(t, ev, c.state); got.AnsweredBy != acp.AnsweredByUser || got.Answer != nil {
			t.Fatalf("%s: %+v", c.action, got)
		}
	}
	if end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd)); end.StopReason != schema.StopEndTurn {
		t.Fatalf("turn ended %+v", end)
	}
}

func TestElicitMalformedSchemas(t *testing.T) {
	cases := []struct{ schema, want string }{
		{`[]`, "must be a JSON object"},
		{`{"type":"array","properties":{}}`, `type must be \"object\"`},
		{`{"properties":{"a":{"type":"object"}}}`, `property \"a\": type \"object\"`},
		{`{"properties":{"a":{"type":"string","format":"phone"}}}`, `format \"phone\"`},
		{`{"properties":{"a":{"type":"string"}},"required":["b"]}`, `requires \"b\"`},
		{`{"properties":{"a":{"type":"array","items":{"type":"number"}}}}`, "only string choices"},
		{`{"properties":{"a":{"type":"integer","minimum":5,"maximum":1}}}`, "minimum is greater"},
		{`{"properties":{"a":{"type":"string","minLength":-1}}}`, "minLength must be"},
		{`{"properties":{"a":{"type":"boolean","default":"yes"}}}`, "default: is not a boolean"},
		{`{"properties":{"a":{"type":"string","oneOf":[{"title":"x"}]}}}`, "no const"},
		{`{"properties":{"a":{"type":"string","pattern":"(?=x)"}}}`, "pattern"},
		{`{"properties":{` + manyProps(elicit.MaxFields+1) + `}}`, "more than the 64 allowed"},
	}
	var steps strings.Builder
	for i, c := range cases {
		call, _ := json.Marshal(map[string]any{"call": "elicitation/create", "id": i + 1,
			"params": map[string]any{"mode": "form", "message": "m", "requestedSchema": json.RawMessage(c.schema)},
			"want":   `"code":-32602`})
		steps.Write(call)
		steps.WriteString(",")
	}
	steps.WriteString(`{"reply":{"stopReason":"end_turn"}}`)
	_, ev, _ := promptElicit(t, acp.ElicitAll(), steps.String())
	for _, c := range cases {
		el := elicitIn(t, ev, acp.ElicitInvalid)
		b, _ := json.Marshal(el.Error)
		if !strings.Contains(string(b), c.want) || el.Schema != nil {
			t.Fatalf("schema %.60s: error %s, want it to say %s", c.schema, b, c.want)
		}
	}
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
}

func manyProps(n int) string {
	var parts []string
	for i := range n {
		parts = append(parts, `"f`+strings.Repeat("x", i)+`":{"type":"boolean"}`)
	}
	return strings.Join(parts, ",")
}

func TestElicitModeNotAdvertised(t *testing.T) {
	s, ev, j := promptElicit(t, acp.ElicitModes{Form: true}, `
 {"call":"elicitation/create","params":{"mode":"url","message":"Log in","url":"https://example.com","elicitationId":"e1"},"want":"mode \\\"url\\\" is not supported"},
 {"call":"elicitation/create","params":{"mode":"telepathy","message":"?"},"want":"-32602"},
 {"reply":{"stopReason":"end_turn"}}`)
	if end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd)); end.StopReason != schema.StopEndTurn {
		t.Fatalf("turn ended %+v", end)
	}
	if !strings.Contains(j.text(), `"elicitation":{"form":{}}`) {
		t.Fatalf("initialize does not advertise form only:\n%s", j.text())
	}
	for _, e := range s.Snapshot().Entries {
		if e.Kind == acp.KindElicitation {
			t.Fatalf("a refused mode left an entry: %+v", e.Elicitation)
		}
	}
}

func TestElicitNothingAdvertisedByDefault(t *testing.T) {
	_, _, j := startElicit(t, acp.ElicitModes{}, `{"expect":"session/prompt"}`)
	if strings.Contains(j.text(), `elicitation`) {
		t.Fatalf("initialize mentions elicitation with no mode enabled:\n%s", j.text())
	}
}

func TestElicitOpenWhenStopped(t *testing.T) {
	s, ev, _ := promptElicit(t, acp.ElicitAll(), `
 {"call":"elicitation/create","id":9,"params":{"mode":"form","message":"Q","requestedSchema":{"properties":{"a":{"type":"string"}}}},"want":"{\"action\":\"cancel\"}"},
 {"reply":{"stopReason":"cancelled"}}`)
	el := elicitIn(t, ev, acp.ElicitOpen)
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if got := elicitIn(t, ev, acp.ElicitCancelled); got.AnsweredBy != acp.AnsweredByCancel {
		t.Fatalf("after Stop: %+v", got)
	}
	if end := ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd)); end.StopReason != schema.StopCancelled {
		t.Fatalf("turn ended %+v", end)
	}
	if err := s.AnswerElicitation(el.RequestID, acp.ElicitAccept, nil); !errors.Is(err, acp.ErrElicitationNotOpen) {
		t.Fatalf("answer after Stop: %v", err)
	}
}

func TestElicitURLAndComplete(t *testing.T) {
	s, ev, j := promptElicit(t, acp.ElicitAll(), `
 {"call":"elicitation/create","id":3,"params":{"mode":"url","message":"Log in","url":"https://bücher.example/login?x=1","elicitationId":"el-1"},"want":"{\"action\":\"accept\"}"},
 {"send":{"jsonrpc":"2.0","method":"elicitation/complete","params":{"elicitationId":"el-1"}}},
 {"send":{"jsonrpc":"2.0","id":4,"method":"elicitation/create","params":{"sessionId":"sc1","mode":"url","message":"Other","url":"http://[::1]:8080/b","elicitationId":"el-2"}}},
 {"send":{"jsonrpc":"2.0","method":"elicitation/complete","params":{"elicitationId":"el-2"}}},
 {"call":"elicitation/create","id":5,"params":{"mode":"url","message":"Bad","url":"javascript:alert(1)","elicitationId":"el-3"},"want":"scheme"},
 {"reply":{"stopReason":"end_turn"}}`)
	el := elicitIn(t, ev, acp.ElicitOpen)
	if el.Host != "xn--bcher-kva.example" || el.ElicitationID != "el-1" || el.Mode != acp.ElicitModeURL {
		t.Fatalf("open url elicitation %+v", el)
	}
	u, err := s.ElicitationURL(el.RequestID)
	if err != nil || u != "https://bücher.example/login?x=1" {
		t.Fatalf("ElicitationURL: %q, %v", u, err)
	}
	if err := s.AnswerElicitation(el.RequestID, acp.ElicitAccept, nil); err != nil {
		t.Fatal(err)
	}
	elicitIn(t, ev, acp.ElicitAccepted)
	if got := elicitIn(t, ev, acp.ElicitCompleted); got.AnsweredBy != acp.AnsweredByUser {
		t.Fatalf("completed %+v", got)
	}
	if _, err := s.ElicitationURL(el.RequestID); !errors.Is(err, acp.ErrElicitationNotOpen) {
		t.Fatalf("URL of a completed elicitation: %v", err)
	}
	// Complete before any answer: the agent closed it, and it is answered cancel.
	if got := elicitIn(t, ev, acp.ElicitOpen); got.Host != "[::1]:8080" {
		t.Fatalf("ip host %+v", got)
	}
	if got := elicitIn(t, ev, acp.ElicitCompleted); got.AnsweredBy != acp.AnsweredByAgent || got.RequestID != "4" {
		t.Fatalf("completed while open: %+v", got)
	}
	if got := elicitIn(t, ev, acp.ElicitInvalid); !strings.Contains(got.Error, "javascript") && !strings.Contains(got.Error, "scheme") {
		t.Fatalf("bad url: %+v", got)
	}
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	if !strings.Contains(j.text(), `{"jsonrpc":"2.0","id":4,"result":{"action":"cancel"}}`) {
		t.Fatalf("the open url elicitation the agent completed was not answered cancel:\n%s", j.text())
	}
}
