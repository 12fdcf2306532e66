package hub

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/rules"
)

// permissionCall is a scripted session/request_permission for the tool call toolCall (JSON
// without its id and title, which are id), answered with want.
func permissionCall(id, toolCall, want string) string {
	return `{"call":"session/request_permission","params":{"toolCall":{"toolCallId":"` + id + `","title":"` + id + `",` + toolCall +
		`},"options":[{"optionId":"a1","name":"Allow","kind":"allow_once"},{"optionId":"r1","name":"Reject","kind":"reject_once"}]},"want":"` + want + `"}`
}

// TestRulesSeeEveryPath: through a real session, rules allowing reads and edits in the project
// do not answer a request that names a path outside it anywhere — a diff behind an in-folder
// location, raw-input fields named changes, target or file, a nested one, ~ or file: — nor one
// whose raw input names a path that cannot be placed (~nobody, $WORKDIR): the person is asked,
// and no allow rule is offered for it. A reject rule still answers such a request, and an
// ordinary read in the project is still allowed.
func TestRulesSeeEveryPath(t *testing.T) {
	base := t.TempDir()
	asked := map[string]string{ // request → its tool call
		"diff-home":    `"kind":"edit","locations":[{"path":"src/a.go"}],"content":[{"type":"diff","path":"$HOME/.bashrc","oldText":null,"newText":"x"}]`,
		"changes":      `"kind":"read","rawInput":{"changes":{"/etc/passwd":{"type":"update"}}}`,
		"target":       `"kind":"read","locations":[{"path":"src/a.go"}],"rawInput":{"target":"/etc/passwd"}`,
		"file":         `"kind":"read","rawInput":{"file":"/etc/passwd"}`,
		"nested":       `"kind":"read","rawInput":{"ops":[{"args":{"p":["/etc/passwd"]}}]}`,
		"tilde":        `"kind":"read","locations":[{"path":"~/.bashrc"}]`,
		"file-uri":     `"kind":"read","locations":[{"path":"file:///etc/passwd"}]`,
		"unplaceable":  `"kind":"read","rawInput":{"file_path":"~nobody/notes"}`,
		"unplaceable2": `"kind":"read","rawInput":{"spec":{"file_path":"$WORKDIR/x"}}`,
	}
	var steps []string
	for _, id := range slices.Sorted(maps.Keys(asked)) {
		steps = append(steps, permissionCall(id, asked[id], "r1"))
	}
	steps = append(steps,
		permissionCall("ordinary", `"kind":"read","locations":[{"path":"src/ok.go"}],"rawInput":{"file_path":"src/ok.go"}`, "a1"),
		permissionCall("delete-unplaceable", `"kind":"delete","rawInput":{"file_path":"~nobody/x"}`, "r1"))
	sc := `[` + handshake + `
 {"expect":"session/prompt"},
 ` + strings.Join(steps, ",\n ") + `,
 {"reply":{"stopReason":"end_turn"}}]`
	h, _, s, evs := ruleSession(t, base, sc)
	ctx := context.Background()
	for _, r := range []rules.Rule{{Folder: base, Kind: "read", Decision: rules.Allow}, {Folder: base, Kind: "edit", Decision: rules.Allow},
		{Folder: base, Kind: "delete", Decision: rules.Reject}} {
		if _, err := h.SaveRule(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	byRule := map[string]string{}
	for done := false; !done; {
		ev := waitFor(t, evs, func(acp.Event) bool { return true })
		switch {
		case ev.Kind == acp.EventPermission:
			if _, ok := asked[ev.Title]; !ok {
				t.Errorf("%s was asked, want it answered by a rule", ev.Title)
			}
			for _, o := range ev.RuleOptions {
				if o.Decision == rules.Allow {
					b, _ := json.Marshal(o)
					t.Errorf("%s offers an allow rule that would not answer it: %s", ev.Title, b)
				}
			}
			delete(asked, ev.Title)
			if err := s.AnswerPermission(ev.RequestID, "r1"); err != nil {
				t.Fatal(err)
			}
		case ev.Kind == acp.EventPermissionDone && ev.Decision.DecidedBy == acp.DecidedByRule:
			byRule[ev.Title] = ev.Decision.OptionID
		case ev.Kind == acp.EventTurnEnd:
			done = true
		}
	}
	if len(asked) != 0 {
		t.Errorf("not asked: %v", asked)
	}
	if len(byRule) != 2 || byRule["ordinary"] != "a1" || byRule["delete-unplaceable"] != "r1" {
		t.Errorf("answered by rules %v, want the ordinary read allowed and the delete rejected", byRule)
	}
}
