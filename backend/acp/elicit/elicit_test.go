package elicit_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"agentdesk/backend/acp/elicit"
)

const form = `{"type":"object","title":"Who","properties":{
 "name":{"type":"string","title":"Your name","minLength":2,"maxLength":5,"pattern":"^[A-Z]"},
 "mail":{"type":"string","format":"email","default":"a@b.c"},
 "token":{"type":"string","format":"password"},
 "count":{"type":"integer","minimum":1,"maximum":10},
 "size":{"type":"string","oneOf":[{"const":"s","title":"Small"},{"const":"l"}]},
 "colours":{"type":"array","items":{"anyOf":[{"const":"r","title":"Red"},{"const":"g"}]},"maxItems":1},
 "ok":{"type":"boolean","default":true}},
 "required":["name","count"]}`

func parse(t *testing.T, raw string) *elicit.Schema {
	t.Helper()
	s, err := elicit.Parse(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The parsed fields are what the window renders: their JSON carries every constraint, in the
// agent's order, and nothing the schema did not say.
func TestParseFieldsJSON(t *testing.T) {
	s := parse(t, form)
	var names []string
	for _, f := range s.Fields {
		names = append(names, f.Name)
	}
	if strings.Join(names, ",") != "name,mail,token,count,size,colours,ok" {
		t.Fatalf("fields out of the agent's order: %v", names)
	}
	got, err := json.Marshal(s.Fields)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"name":"name","type":"string","title":"Your name","required":true,"pattern":"^[A-Z]","minLength":2,"maxLength":5},` +
		`{"name":"mail","type":"string","format":"email","default":"a@b.c"},` +
		`{"name":"token","type":"string","secret":true,"format":"password"},` +
		`{"name":"count","type":"integer","required":true,"minimum":1,"maximum":10},` +
		`{"name":"size","type":"string","choices":[{"value":"s","title":"Small"},{"value":"l","title":"l"}]},` +
		`{"name":"colours","type":"array","choices":[{"value":"r","title":"Red"},{"value":"g","title":"g"}],"maxItems":1},` +
		`{"name":"ok","type":"boolean","default":true}]`
	if string(got) != want {
		t.Fatalf("fields JSON\n got %s\nwant %s", got, want)
	}
}

func TestParseRefusesBeyondBounds(t *testing.T) {
	many := make([]string, elicit.MaxChoices+1)
	for i := range many {
		many[i] = `"c` + strings.Repeat("x", i) + `"`
	}
	for _, c := range []struct{ schema, want string }{
		{strings.Repeat(" ", elicit.MaxSchemaBytes+1), "bytes, more than"},
		{`{"properties":{"` + strings.Repeat("n", elicit.MaxName+1) + `":{"type":"boolean"}}}`, "property name must be"},
		{`{"properties":{"a":{"type":"string","enum":[` + strings.Join(many, ",") + `]}}}`, "more than 256 choices"},
		{`{"properties":{"a":{"type":"string","enum":["x","x"]}}}`, "given twice"},
		{`{"properties":{"a":{"type":"boolean"},"a":{"type":"boolean"}}}`, "given twice"},
		{`{"properties":{"a":{"type":"array","items":{"type":"string"}}}}`, "needs items with the choices"},
		{`{"properties":{"a":{"type":"string","minLength":3,"maxLength":2}}}`, "minLength is greater"},
	} {
		_, err := elicit.Parse(json.RawMessage(c.schema))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("schema %.50s: %v, want %q", c.schema, err, c.want)
		}
	}
}

func TestCheckContent(t *testing.T) {
	s := parse(t, form)
	sent, err := s.CheckContent(map[string]any{"name": "Ann", "count": 4.0, "token": "hunter2", "colours": []any{"g"}})
	if err != nil {
		t.Fatal(err)
	}
	if sent["count"] != int64(4) || sent["colours"].([]string)[0] != "g" {
		t.Fatalf("not normalised: %#v", sent)
	}
	if kept := s.Masked(sent); kept["token"] != elicit.SecretMask || kept["name"] != "Ann" {
		t.Fatalf("masked %#v", kept)
	}
	for _, bad := range []struct {
		content map[string]any
		field   string
	}{
		{map[string]any{"count": 1.0}, "name"},
		{map[string]any{"name": "A", "count": 1.0}, "name"},
		{map[string]any{"name": "ann", "count": 1.0}, "name"},
		{map[string]any{"name": "Ann", "count": 1.5}, "count"},
		{map[string]any{"name": "Ann", "count": 1.0, "mail": "no"}, "mail"},
		{map[string]any{"name": "Ann", "count": 1.0, "size": "m"}, "size"},
		{map[string]any{"name": "Ann", "count": 1.0, "colours": []any{"r", "g"}}, "colours"},
		{map[string]any{"name": "Ann", "count": 1.0, "extra": true}, "extra"},
	} {
		_, err := s.CheckContent(bad.content)
		var fe *elicit.FieldError
		if !errors.As(err, &fe) || fe.Field != bad.field {
			t.Fatalf("answer %v: %v, want a refusal on %q", bad.content, err, bad.field)
		}
	}
}

func TestCheckURL(t *testing.T) {
	for raw, want := range map[string]string{
		"https://example.com/a?b": "example.com",
		"http://[::1]:8080/":      "[::1]:8080",
		"https://bücher.de/":      "xn--bcher-kva.de",
	} {
		if host, err := elicit.CheckURL(raw); err != nil || host != want {
			t.Fatalf("CheckURL(%q) = %q, %v; want %q", raw, host, err, want)
		}
	}
	for _, raw := range []string{"", "javascript:alert(1)", "file:///etc/passwd", "https://u:p@example.com/", "https:///x",
		"https://" + strings.Repeat("a", elicit.MaxURL)} {
		if _, err := elicit.CheckURL(raw); err == nil {
			t.Fatalf("CheckURL(%q) accepted", raw)
		}
	}
}
