package interop

import (
	"bufio"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"testing"
)

// events reads a server-sent event stream into its data objects, in order.
func events(t *testing.T, resp *http.Response) []map[string]any {
	t.Helper()
	defer resp.Body.Close()
	var out []map[string]any
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var ev map[string]any
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			t.Fatalf("event %q: %v", data, err)
		}
		out = append(out, ev)
	}
	return out
}

// TestTheAnthropicServerStreamsTheScriptsToolCall: a streamed Messages request gets the
// script's text and tool call as the API streams them — the tool's input in pieces that join to
// its JSON, stop reason tool_use and Usage at the end — and the script saw the request's last
// user words and its last tool result.
func TestTheAnthropicServerStreamsTheScriptsToolCall(t *testing.T) {
	srv := NewAnthropic(func(a Ask) Answer {
		if a.Prompt != "list it" || !a.HasResult || a.ToolResult != "a.txt" || !a.ToolError || a.Side {
			t.Errorf("the script was asked %+v", a)
		}
		return Answer{Text: "Listing.", Tool: "Bash", Input: map[string]any{"command": "ls"}}
	})
	defer srv.Close()
	req := `{"model":"m","stream":true,"tools":[{"name":"Bash"}],"messages":[
	 {"role":"user","content":[{"type":"text","text":"<system-reminder>x</system-reminder>"},{"type":"text","text":"list it"}]},
	 {"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{}}]},
	 {"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"a.txt"}],"is_error":true}]}]}`
	resp, err := http.Post(srv.URL+"/v1/messages", "application/json", strings.NewReader(req))
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	var text, input, stop string
	var output float64
	for _, ev := range events(t, resp) {
		kinds = append(kinds, ev["type"].(string))
		if d, ok := ev["delta"].(map[string]any); ok {
			text += str(d["text"])
			input += str(d["partial_json"])
			stop += str(d["stop_reason"])
		}
		if u, ok := ev["usage"].(map[string]any); ok {
			output, _ = u["output_tokens"].(float64)
		}
	}
	want := "message_start content_block_start content_block_delta content_block_delta content_block_stop " +
		"content_block_start content_block_delta content_block_delta content_block_stop message_delta message_stop"
	if strings.Join(kinds, " ") != want || text != "Listing." || input != `{"command":"ls"}` || stop != "tool_use" || int(output) != Usage.Output {
		t.Fatalf("events %v, text %q, input %q, stop %q, output %v", kinds, text, input, stop, output)
	}
	if seen := srv.Seen(); len(seen) != 1 || seen[0].Path != "/v1/messages" {
		t.Fatalf("seen %+v", seen)
	}
}

// TestTheOpenAIServerStreamsTheScriptsFunctionCall: a Responses request gets the script's text
// and function call as output items with their deltas, then response.completed with Usage; the
// script saw the last user words (not the environment context) and the call's output.
func TestTheOpenAIServerStreamsTheScriptsFunctionCall(t *testing.T) {
	srv := NewOpenAI(func(a Ask) Answer {
		if a.Prompt != "run it" || !a.HasResult || a.ToolResult != "exit 0" || a.System != "be brief" {
			t.Errorf("the script was asked %+v", a)
		}
		return Answer{Text: "Running.", Tool: "exec_command", Input: map[string]any{"cmd": "true"}}
	})
	defer srv.Close()
	req := `{"model":"m","instructions":"be brief","tools":[{"type":"function","name":"exec_command"}],"input":[
	 {"type":"message","role":"user","content":[{"type":"input_text","text":"run it"}]},
	 {"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>cwd</environment_context>"}]},
	 {"type":"function_call","call_id":"c1","name":"exec_command","arguments":"{}"},
	 {"type":"function_call_output","call_id":"c1","output":"exit 0"}]}`
	resp, err := http.Post(srv.URL+"/responses", "application/json", strings.NewReader(req))
	if err != nil {
		t.Fatal(err)
	}
	var text, args string
	var items []string
	var usage map[string]any
	for _, ev := range events(t, resp) {
		switch ev["type"] {
		case "response.output_text.delta":
			text += str(ev["delta"])
		case "response.function_call_arguments.delta":
			args += str(ev["delta"])
		case "response.output_item.done":
			items = append(items, str(ev["item"].(map[string]any)["type"]))
		case "response.completed":
			usage, _ = ev["response"].(map[string]any)["usage"].(map[string]any)
		}
	}
	if text != "Running." || args != `{"cmd":"true"}` || strings.Join(items, " ") != "message function_call" ||
		usage == nil || int(usage["output_tokens"].(float64)) != Usage.Output {
		t.Fatalf("text %q, args %q, items %v, usage %v", text, args, items, usage)
	}
}

// TestTheTripwireCountsEveryConnection: a connection to the tripwire is counted with what it
// sent first; one that sends nothing is counted too.
func TestTheTripwireCountsEveryConnection(t *testing.T) {
	w, err := NewTripwire()
	if err != nil {
		t.Fatal(err)
	}
	for _, first := range []string{"CONNECT api.example.com:443 HTTP/1.1\r\n\r\n", ""} {
		c, err := net.Dial("tcp", strings.TrimPrefix(w.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		if first != "" {
			c.Write([]byte(first))
		}
		c.(*net.TCPConn).CloseWrite()
		buf := make([]byte, 1)
		c.Read(buf) // returns once the tripwire has closed it: counted by then
		c.Close()
	}
	w.Close()
	if hits := w.Hits(); len(hits) != 2 || !strings.HasPrefix(hits[0], "CONNECT api.example.com") {
		t.Fatalf("hits %q", hits)
	}
}

func str(v any) string { s, _ := v.(string); return s }

// TestAnUnknownRequestIsAnsweredInTheAPIsErrorShapeAndKept: a request the server has no
// answer for gets 404 with the API's error object naming it, and is in the journal.
func TestAnUnknownRequestIsAnsweredInTheAPIsErrorShapeAndKept(t *testing.T) {
	a, o := NewAnthropic(func(Ask) Answer { return Say("") }), NewOpenAI(func(Ask) Answer { return Say("") })
	defer a.Close()
	defer o.Close()
	for _, c := range []struct {
		url  string
		seen func() []Seen
	}{{a.URL + "/v1/organizations/x", a.Seen}, {o.URL + "/files", o.Seen}} {
		resp, err := http.Get(c.url)
		if err != nil {
			t.Fatal(err)
		}
		var body struct {
			Error struct{ Message string } `json:"error"`
		}
		err = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound || err != nil || !strings.Contains(body.Error.Message, "has no GET") {
			t.Errorf("%s: %d, %+v, %v", c.url, resp.StatusCode, body, err)
		}
		if seen := c.seen(); len(seen) != 1 || seen[0].Method != http.MethodGet {
			t.Errorf("%s: seen %+v", c.url, seen)
		}
	}
}
