package jsonrpc

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// TestTextDecodesAsAString: a Text field decodes to what a string field does, with the same
// errors (in encoding/json's words), for plain text, escapes, surrogates, invalid UTF-8, null
// and the wrong kinds.
func TestTextDecodesAsAString(t *testing.T) {
	type asString struct {
		Text string `json:"text"`
	}
	type asText struct {
		Text Text `json:"text"`
	}
	for _, in := range []string{
		`{"text":"plain words"}`,
		`{"text":""}`,
		`{"text":"line\nnext \"quoted\" \\ back\tslash \/ \u00e9 \ud83d\ude00"}`,
		`{"text":"\ud800 lone"}`,
		"{\"text\":\"bad \xff\xfe utf-8\"}",
		"{\"text\":\"\xff\xff\xff\xff\"}",
		`{"text":"\u0041\u0042\u0043\u0044\u0045\u0046\u0047\u0048"}`,
		`{"text":null}`,
		`{"text":12}`,
		`{"text":{"a":1}}`,
		`{"text":["a"]}`,
		`{"text":"unterminated}`,
		`{"TEXT":"cased"}`,
	} {
		var a asString
		var b asText // zero, as Unmarshal requires
		ea, eb := json.Unmarshal([]byte(in), &a), Unmarshal([]byte(in), &b)
		if sa, sb := fmt.Sprintf("%q %v", a.Text, errWords(ea)), fmt.Sprintf("%q %v", b.Text, errWords(eb)); sa != sb {
			t.Errorf("%q:\n encoding/json %s\n Text          %s", in, sa, sb)
		}
	}
}

// A huge text is decoded with one allocation of its size, without or with escapes: no second
// copy of it.
func TestTextOfAHugeStringIsOneCopy(t *testing.T) {
	for _, text := range []string{strings.Repeat("word ", 1<<20), strings.Repeat("say \\\"word\\\"\\n", 1<<18)} {
		line := []byte(`{"text":"` + text + `"}`)
		var v struct {
			Text Text `json:"text"`
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		err := Unmarshal(line, &v)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		var want string
		if err := json.Unmarshal(line, &struct {
			Text *string `json:"text"`
		}{&want}); err != nil {
			t.Fatal(err)
		}
		if string(v.Text) != want {
			t.Fatalf("decoded %d bytes, want %d", len(v.Text), len(want))
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > uint64(len(line))+64<<10 {
			t.Errorf("a text of %d bytes in a line of %d took %d bytes to decode: more than one copy", len(want), len(line), n)
		}
	}
}
