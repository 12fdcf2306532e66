package demoagent

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
)

// Prompts that make the demo ask the person something through the client (elicitation).
const (
	promptAskMe    = "ask me"      // a form
	promptOpenLink = "open a link" // a URL to open, completed once accepted
)

// demoForm is the form "ask me" sends: one field of each kind, a required one, a default,
// bounds and a secret.
const demoForm = `{"type":"object","properties":{
 "name":{"type":"string","title":"Your name","minLength":1,"maxLength":80},
 "colour":{"type":"string","title":"Favourite colour","oneOf":[{"const":"red","title":"Red"},{"const":"green","title":"Green"},{"const":"blue","title":"Blue"}]},
 "count":{"type":"integer","title":"How many","description":"A number from 1 to 10","minimum":1,"maximum":10,"default":3},
 "subscribe":{"type":"boolean","title":"Subscribe to news","default":false},
 "token":{"type":"string","title":"API token","description":"A secret: agentdesk masks it everywhere but here","format":"password"}},
 "required":["name"]}`

// elicitTurn plays "ask me" and "open a link"; ok is false when the prompt is neither.
func (s *script) elicitTurn() (reason string, ok bool) {
	text := strings.ToLower(strings.TrimSpace(s.prompt))
	switch {
	case strings.Contains(text, promptAskMe):
		return s.askMe(), true
	case strings.Contains(text, promptOpenLink):
		return s.openLink(), true
	}
	return "", false
}

func (s *script) askMe() string {
	if !s.a.elicitForm() {
		return s.say("I would ask you with a form, but this client does not show elicitation forms.")
	}
	var res acp.ElicitationResult
	err := s.a.conn.Call(s.ctx, acp.MethodElicitationCreate, map[string]any{"sessionId": s.session, "mode": acp.ElicitModeForm,
		"message": "A few questions for the demo.", "requestedSchema": json.RawMessage(demoForm)}, &res)
	if err != nil {
		if s.ctx.Err() != nil {
			return schema.StopCancelled
		}
		return s.say(fmt.Sprintf("The client refused my form: %v", err))
	}
	if res.Action != acp.ElicitAccept {
		return s.say(fmt.Sprintf("You chose %s: no answers then.", res.Action))
	}
	names := make([]string, 0, len(res.Content))
	for k := range res.Content {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("Thanks. I got:\n\n")
	for _, k := range names {
		v := res.Content[k]
		if k == "token" { // a secret: show that it came, never what it is
			v = fmt.Sprintf("a secret of %d characters", len(fmt.Sprint(v)))
		}
		fmt.Fprintf(&b, "- **%s**: %v\n", k, v)
	}
	return s.say(b.String())
}

func (s *script) openLink() string {
	if !s.a.elicitURL() {
		return s.say("I would send you a link to open, but this client does not open elicitation links.")
	}
	id := fmt.Sprintf("demo-login-%d", s.turn)
	var res acp.ElicitationResult
	err := s.a.conn.Call(s.ctx, acp.MethodElicitationCreate, map[string]any{"sessionId": s.session, "mode": acp.ElicitModeURL,
		"message": "Log in to the example service to continue.", "url": "https://example.com/login", "elicitationId": id}, &res)
	if err != nil {
		if s.ctx.Err() != nil {
			return schema.StopCancelled
		}
		return s.say(fmt.Sprintf("The client refused my link: %v", err))
	}
	if res.Action != acp.ElicitAccept {
		return s.say(fmt.Sprintf("You chose %s: I will not wait for the login.", res.Action))
	}
	if !s.pause() {
		return schema.StopCancelled
	}
	if s.a.conn.Notify(acp.MethodElicitationComplete, acp.ElicitationCompleteParams{ElicitationID: id}) != nil {
		return schema.StopCancelled
	}
	return s.say("Thanks: the login is done (this is a demo: nothing was checked).")
}

// say streams text as the agent's reply and ends the turn.
func (s *script) say(text string) string {
	if !s.stream("agent_message_chunk", text) {
		return schema.StopCancelled
	}
	return schema.StopEndTurn
}

func (a *Agent) elicitForm() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.elicit != nil && a.elicit.Form != nil
}

func (a *Agent) elicitURL() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.elicit != nil && a.elicit.URL != nil
}
