package jsonrpc

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestUnmarshalDecodesAsEncodingJSON: the fast Unmarshal the per-update path uses gives what
// encoding/json gives — the same values, and an error exactly when it gives one, in its words
// (json v2 names the field's path more precisely) — for the odd lines an agent may send: invalid
// UTF-8, lone surrogates, duplicate and differently cased names, wrong types, trailing bytes,
// numbers out of range, and a line that goes wrong after good fields (encoding/json decodes on,
// json v2 stops: Unmarshal redoes a failed decode in encoding/json's semantics).
func TestUnmarshalDecodesAsEncodingJSON(t *testing.T) {
	type update struct {
		Kind    string          `json:"sessionUpdate"`
		Content RawView         `json:"content"`
		Title   *string         `json:"title"`
		Name    json.RawMessage `json:"name"`
		Used    int64           `json:"used"`
		Entries []struct {
			Content string `json:"content"`
		} `json:"entries"`
	}
	for _, in := range []string{
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{}}}`,
		"{\"method\":\"a\xffb\",\"id\":1}",
		`{"method":"a","method":"b","id":1}`,
		`{"Method":"x","ID":2,"PARAMS":{}}`,
		`{"method":"\ud800x"}`,
		`{"id":1e400}`,
		`{"method":"a"} trailing`,
		`{"method":"a",}`,
		`{"method":1}`,
		`{"method":1,"id":7,"params":{"a":1}}`, // encoding/json goes on after a wrong kind
		`{"id":7,"method":"a","params":{"x":[1,}}`,
		`{"error":{"code":"x"}}`,
		`{"error":{"code":-32000,"message":"m","data":[1]}}`,
		"{\"params\":\"\xff\"}",
		`[1,2]`,
		`"just a string"`,
		``,
	} {
		var a, b wireEnvelope
		ea, eb := json.Unmarshal([]byte(in), &a), Unmarshal([]byte(in), &b)
		if sa, sb := fmt.Sprintf("%+v %q %v", a, a.Method, errWords(ea)), fmt.Sprintf("%+v %q %v", b, b.Method, errWords(eb)); sa != sb {
			t.Errorf("envelope %q:\n encoding/json %s\n Unmarshal     %s", in, sa, sb)
		}
	}
	for _, in := range []string{
		`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}`,
		`{"sessionUpdate":"tool_call","title":null,"name":"Bash","used":"3"}`,
		`{"sessionUpdate":"usage_update","used":1.5}`,
		`{"used":"3","sessionUpdate":"plan","entries":[{"content":"a"}]}`,
		`{"sessionUpdate":"usage_update","used":99999999999999999999}`,
		`{"sessionUpdate":"plan","entries":[{"content":"a"},{"content":2}]}`,
		"{\"sessionUpdate\":\"x\",\"Title\":\"\xfe\",\"title\":\"b\"}",
	} {
		var a, b update
		ea, eb := json.Unmarshal([]byte(in), &a), Unmarshal([]byte(in), &b)
		ta, tb := a.Title, b.Title
		a.Title, b.Title = nil, nil
		if sa, sb := fmt.Sprintf("%+v %v %v", a, deref(ta), errWords(ea)), fmt.Sprintf("%+v %v %v", b, deref(tb), errWords(eb)); sa != sb {
			t.Errorf("update %q:\n encoding/json %s\n Unmarshal     %s", in, sa, sb)
		}
	}
}

// errWords is an error's words up to the field path, which json v2 names more precisely.
func errWords(err error) string {
	if err == nil {
		return "no error"
	}
	words, _, _ := strings.Cut(err.Error(), " Go struct field ")
	return words
}

func deref(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}
