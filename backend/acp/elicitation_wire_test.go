package acp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/elicit"
	"agentdesk/backend/acp/schema"
)

// elicitationWire is every elicitation message shape agentdesk sends or reads, as our types
// encode them: pinned by testdata/wire/elicitation.json and checked against the SDK's schema
// types (github.com/coder/acp-go-sdk, generated from ACP's schema).
func elicitationWire() map[string]any {
	caps := schema.ClientCapabilities{FS: schema.FSCapabilities{ReadTextFile: true, WriteTextFile: true}, Terminal: true,
		Elicitation: &schema.ElicitationCaps{Form: &struct{}{}, URL: &struct{}{}}}
	return map[string]any{
		"clientCapabilities": caps,
		"createForm": acp.ElicitationCreateParams{SessionID: "sess-1", Mode: acp.ElicitModeForm, Message: "Who are you?",
			RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","title":"Name"},"age":{"type":"integer","minimum":0}},"required":["name"]}`)},
		"createUrl": acp.ElicitationCreateParams{SessionID: "sess-1", Mode: acp.ElicitModeURL, Message: "Log in",
			URL: "https://example.com/login", ElicitationID: "el-1"},
		"accept":   acp.ElicitationResult{Action: acp.ElicitAccept, Content: map[string]any{"name": "Ann", "age": int64(3)}},
		"decline":  acp.ElicitationResult{Action: acp.ElicitDecline},
		"cancel":   acp.ElicitationResult{Action: acp.ElicitCancel},
		"complete": acp.ElicitationCompleteParams{ElicitationID: "el-1"},
	}
}

func TestGoldenElicitationWire(t *testing.T) {
	path := filepath.Join("testdata", "wire", "elicitation.json")
	ours, err := json.MarshalIndent(elicitationWire(), "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(ours, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./backend/acp -run %s -update)", err, t.Name())
	}
	var golden map[string]json.RawMessage
	if err := json.Unmarshal(raw, &golden); err != nil {
		t.Fatal(err)
	}
	if !sameJSON(t, raw, ours) {
		t.Fatalf("our encoding differs from %s:\n%s", path, ours)
	}

	var caps acpsdk.ClientCapabilities
	decode(t, golden["clientCapabilities"], &caps)
	if caps.Elicitation == nil || caps.Elicitation.Form == nil || caps.Elicitation.Url == nil {
		t.Fatalf("the SDK reads our capabilities as %+v", caps.Elicitation)
	}

	var form, url acpsdk.UnstableCreateElicitationRequest
	decode(t, golden["createForm"], &form)
	decode(t, golden["createUrl"], &url)
	if form.Form == nil || form.Form.Message != "Who are you?" || len(form.Form.RequestedSchema.Properties) != 2 ||
		!reflect.DeepEqual(form.Form.RequestedSchema.Required, []string{"name"}) {
		t.Fatalf("the SDK reads the form request as %+v", form.Form)
	}
	if url.Url == nil || url.Url.Url != "https://example.com/login" || string(url.Url.ElicitationId) != "el-1" {
		t.Fatalf("the SDK reads the url request as %+v", url.Url)
	}
	// What an SDK agent sends, we read (the SDK's v0.13 types lack the session scope's sessionId).
	for name, req := range map[string]acpsdk.UnstableCreateElicitationRequest{"createForm": form, "createUrl": url} {
		sent, _ := json.Marshal(req)
		var got, want acp.ElicitationCreateParams
		decode(t, sent, &got)
		decode(t, golden[name], &want)
		want.SessionID = ""
		if got.Mode != want.Mode || got.Message != want.Message || got.URL != want.URL || got.ElicitationID != want.ElicitationID ||
			(len(want.RequestedSchema) > 0 && !sameJSON(t, got.RequestedSchema, want.RequestedSchema)) {
			t.Fatalf("%s: the SDK sends %s, which we read as %+v", name, sent, got)
		}
		if want.Mode == acp.ElicitModeForm {
			if _, err := elicit.Parse(got.RequestedSchema); err != nil {
				t.Fatalf("the SDK's schema is refused: %v", err)
			}
		}
	}

	for name, action := range map[string]string{"accept": "accept", "decline": "decline", "cancel": "cancel"} {
		var res acpsdk.UnstableCreateElicitationResponse
		decode(t, golden[name], &res)
		ok := (action == "accept" && res.Accept != nil && res.Accept.Content["name"] == "Ann" && res.Accept.Content["age"] == 3.0) ||
			(action == "decline" && res.Decline != nil) || (action == "cancel" && res.Cancel != nil)
		again, _ := json.Marshal(res)
		if !ok || !sameJSON(t, again, golden[name]) {
			t.Fatalf("%s: the SDK reads %s as %s", name, golden[name], again)
		}
	}
	var done acpsdk.UnstableCompleteElicitationNotification
	decode(t, golden["complete"], &done)
	if string(done.ElicitationId) != "el-1" {
		t.Fatalf("the SDK reads complete as %+v", done)
	}
}

func decode(t *testing.T, raw []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("decode %s into %T: %v", raw, v, err)
	}
}

func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	decode(t, a, &x)
	decode(t, b, &y)
	return reflect.DeepEqual(x, y)
}
