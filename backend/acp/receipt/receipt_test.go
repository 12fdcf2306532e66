package receipt

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"agentdesk/backend/acp/schema"
)

// storedReceipt is a receipt as the history holds it, written by the engine before receipts had
// a package of their own (acp.Receipt): every field set.
const storedReceipt = `{"stopReason":"end_turn",` +
	`"changes":{"files":[{"root":"/src","path":"a.go","change":"modified","added":3,"removed":1}],"more":2,"notes":["big.dat was too big to keep"]},` +
	`"startedAt":1700000000000,"endedAt":1700000013000,"wallMs":13000,"waitMs":12000,` +
	`"commands":[{"command":"make test","toolCallId":"e4","exitCode":3},{"command":"sleep 9","signal":"SIGKILL"}],` +
	`"decisions":[{"title":"Write a.go","toolCallId":"e7","outcome":"selected","option":"Allow","kind":"allow_once","decidedBy":"rule","rule":"Allow edits in src"}],` +
	`"questions":[{"message":"Which branch?","mode":"form","state":"accepted","answeredBy":"user"}],` +
	`"tokens":{"input":100,"output":20,"thought":5,"cachedRead":50,"cachedWrite":7,"total":125},` +
	`"cost":{"amount":0.75,"currency":"USD"},"moreCommands":1,"moreDecisions":2,"moreQuestions":3}`

// TestStoredReceiptReadsBack: a receipt stored by the earlier engine decodes field by field and
// encodes back to the very same bytes, so the history reads back unchanged.
func TestStoredReceiptReadsBack(t *testing.T) {
	var r Receipt
	if err := json.Unmarshal([]byte(storedReceipt), &r); err != nil {
		t.Fatal(err)
	}
	three := 3
	want := Receipt{StopReason: "end_turn",
		Changes: &schema.TurnChanges{Files: []schema.ChangedFile{{Root: "/src", Path: "a.go", Change: schema.ChangeModified, Added: 3, Removed: 1}},
			More: 2, Notes: []string{"big.dat was too big to keep"}},
		StartedAt: 1_700_000_000_000, EndedAt: 1_700_000_013_000, WallMs: 13_000, WaitMs: 12_000,
		Commands: []Command{{Command: "make test", ToolCallID: "e4", ExitCode: &three}, {Command: "sleep 9", Signal: "SIGKILL"}},
		Decisions: []Decision{{Title: "Write a.go", ToolCallID: "e7", Outcome: "selected", Option: "Allow", Kind: "allow_once",
			DecidedBy: "rule", Rule: "Allow edits in src"}},
		Questions:    []Question{{Message: "Which branch?", Mode: "form", State: "accepted", AnsweredBy: "user"}},
		Tokens:       &Tokens{Input: 100, Output: 20, Thought: 5, CachedRead: 50, CachedWrite: 7, Total: 125},
		Cost:         &schema.Cost{Amount: 0.75, Currency: "USD"},
		MoreCommands: 1, MoreDecisions: 2, MoreQuestions: 3}
	if !reflect.DeepEqual(r, want) {
		t.Fatalf("decoded %+v\nwant %+v", r, want)
	}
	for name, got := range map[string]*Receipt{"the receipt": &r, "its clone": r.Clone()} {
		b, err := json.Marshal(got)
		if err != nil || !bytes.Equal(b, []byte(storedReceipt)) {
			t.Errorf("%s encodes to\n%s (%v)\nwant\n%s", name, b, err, storedReceipt)
		}
	}
}

// TestCloneSharesNothing: a clone handed to another goroutine shares no list or pointer with
// the receipt the session keeps.
func TestCloneSharesNothing(t *testing.T) {
	var r Receipt
	if err := json.Unmarshal([]byte(storedReceipt), &r); err != nil {
		t.Fatal(err)
	}
	c := r.Clone()
	c.Changes.Files[0].Path, c.Changes.Notes[0] = "b.go", "x"
	c.Commands[0].Command, c.Decisions[0].Title, c.Questions[0].Message = "x", "x", "x"
	c.Tokens.Total, c.Cost.Amount = 1, 1
	b, _ := json.Marshal(&r)
	if string(b) != storedReceipt {
		t.Fatalf("changing the clone changed the receipt:\n%s", b)
	}
	if (*Receipt)(nil).Clone() != nil {
		t.Fatal("the clone of no receipt is not nil")
	}
}

// TestNilDraftRecordsNothing: between turns the session holds no draft; what the agent does
// then is recorded nowhere, and the receipt of a turn without a draft has only its answer.
func TestNilDraftRecordsNothing(t *testing.T) {
	var d *Draft
	d.TerminalStarted("term-1", "ls", nil)
	d.TerminalEnded("term-1", &schema.TerminalExitStatus{})
	d.ToolCard(Card{EntryID: "e1", ToolKind: "execute", Title: "ls"})
	d.AddDecision(Decision{Title: "x"})
	d.AddQuestion("e2")
	d.Waiting(true, time.Unix(1, 0))
	r := d.Finish(Ending{StopReason: "end_turn", Began: time.Unix(1, 0), End: time.Unix(3, 0), Usage: json.RawMessage(`{"inputTokens":4}`)})
	want := &Receipt{StopReason: "end_turn", StartedAt: 1000, EndedAt: 3000, WallMs: 2000, Tokens: &Tokens{Input: 4, Total: 4}}
	if !reflect.DeepEqual(r, want) {
		t.Fatalf("receipt %+v, want %+v", r, want)
	}
}

// TestDraftListsATerminalOnce: a terminal shown by an execute card is one command, linked to the
// card, with the terminal's exact command line and exit; the card's own command (listed before
// the card showed the terminal) is folded into it.
func TestDraftListsATerminalOnce(t *testing.T) {
	d := NewDraft(nil)
	d.ToolCard(Card{EntryID: "e1", ToolKind: "execute", Title: "Run it", RawInput: json.RawMessage(`{"command":["sh","-c","echo hi"]}`)})
	d.TerminalStarted("term-1", "sh -c 'echo hi'", nil)
	code := 0
	d.TerminalEnded("term-1", &schema.TerminalExitStatus{ExitCode: &code})
	d.ToolCard(Card{EntryID: "e1", ToolKind: "execute", Title: "Run it", Terminals: []CardTerminal{{ID: "term-1"}}})
	d.ToolCard(Card{EntryID: "e1", ToolKind: "execute", Title: "Run it", Terminals: []CardTerminal{{ID: "term-1"}}}) // an update
	r := d.Finish(Ending{Question: func(string) (Question, bool) { return Question{}, false }})
	want := []Command{{Command: "sh -c 'echo hi'", ToolCallID: "e1", ExitCode: &code}}
	if !reflect.DeepEqual(r.Commands, want) || r.MoreCommands != 0 {
		t.Fatalf("commands %+v (+%d), want %+v", r.Commands, r.MoreCommands, want)
	}
}

// TestCommandLineBounded: a command line beyond MaxCommandLine is cut on a character boundary
// and marked, never inside a character.
func TestCommandLineBounded(t *testing.T) {
	d := NewDraft(nil)
	long := string(bytes.Repeat([]byte("é"), MaxCommandLine)) // two bytes a character
	d.TerminalStarted("term-1", "x"+long, nil)
	r := d.Finish(Ending{})
	got := r.Commands[0].Command
	if len(got) > MaxCommandLine || !bytes.HasSuffix([]byte(got), []byte("…")) || !json.Valid([]byte(`"`+got+`"`)) ||
		!bytes.HasPrefix([]byte(got), []byte("xéé")) || string(bytes.ToValidUTF8([]byte(got), nil)) != got {
		t.Fatalf("cut to %d bytes: %q…", len(got), got[len(got)-8:])
	}
}

// TestReportedExitCode: an execute card that failed with no terminal gets the exit code its
// own words report first ("Exit code 3" in rawOutput, as Claude Code's Bash tool says it, or
// leading its text); a completed card, or a number later in the output, says nothing of it;
// rawOutput's metadata.exit (opencode's bash, completed or failed) is the code.
func TestReportedExitCode(t *testing.T) {
	for _, c := range []struct {
		name string
		card Card
		want *int
	}{
		{"rawOutput", Card{Failed: true, RawOutput: json.RawMessage(`"Exit code 3\nboom"`)}, intp(3)},
		{"text", Card{Failed: true, RawOutput: json.RawMessage(`{"stderr":"x"}`), Text: "exit code: 127\nsh: nope: not found"}, intp(127)},
		{"completed", Card{RawOutput: json.RawMessage(`"Exit code 3"`)}, nil},
		{"mid-output", Card{Failed: true, Text: "boom\nExit code 3"}, nil},
		{"no number", Card{Failed: true, Text: "Exit code unknown"}, nil},
		{"metadata", Card{RawOutput: json.RawMessage(`{"output":"x\n","metadata":{"output":"x\n","exit":3,"truncated":false}}`)}, intp(3)},
		{"metadata 0", Card{RawOutput: json.RawMessage(`{"metadata":{"exit":0}}`)}, intp(0)},
		{"metadata without exit", Card{RawOutput: json.RawMessage(`{"metadata":{"exit":"3"}}`)}, nil},
	} {
		d := NewDraft(nil)
		c.card.EntryID, c.card.ToolKind, c.card.Title = "e1", "execute", "./check.sh"
		d.ToolCard(c.card)
		r := d.Finish(Ending{Question: func(string) (Question, bool) { return Question{}, false }})
		if len(r.Commands) != 1 || !reflect.DeepEqual(r.Commands[0].ExitCode, c.want) {
			t.Errorf("%s: commands %+v, want exit %v", c.name, r.Commands, c.want)
		}
	}
}

func intp(n int) *int { return &n }

// TestCostText: a cost reads as formatCost in the page words it: four decimals below one, two
// from one and for nothing at all, a marker below what four show, the currency named unless USD.
func TestCostText(t *testing.T) {
	for _, c := range []struct {
		cost schema.Cost
		want string
	}{
		{schema.Cost{Amount: 0.0042, Currency: "USD"}, "$0.0042"},
		{schema.Cost{Amount: 1.5, Currency: "USD"}, "$1.50"},
		{schema.Cost{Amount: 0, Currency: "USD"}, "$0.00"},
		{schema.Cost{Amount: 0.00001, Currency: "USD"}, "<$0.0001"},
		{schema.Cost{Amount: 0.75, Currency: "EUR"}, "0.7500 EUR"},
		{schema.Cost{Amount: 12, Currency: "EUR"}, "12.00 EUR"},
	} {
		if got := CostText(c.cost); got != c.want {
			t.Errorf("CostText(%+v) = %q, want %q", c.cost, got, c.want)
		}
	}
}

// TestCostOnlyWhenItGrew: a turn's cost is what the session's cost grew by; a turn that spent
// nothing (or after which the agent restarted its count) shows none, never "$0.0000".
func TestCostOnlyWhenItGrew(t *testing.T) {
	none := func(string) (Question, bool) { return Question{}, false }
	for _, c := range []struct {
		start, end *schema.Cost
		want       *schema.Cost
	}{
		{&schema.Cost{Amount: 1.5, Currency: "USD"}, &schema.Cost{Amount: 2.25, Currency: "USD"}, &schema.Cost{Amount: 0.75, Currency: "USD"}},
		{&schema.Cost{Amount: 1.5, Currency: "USD"}, &schema.Cost{Amount: 1.5, Currency: "USD"}, nil},
		{&schema.Cost{Amount: 1.5, Currency: "USD"}, &schema.Cost{Amount: 0.2, Currency: "USD"}, nil},
		{nil, &schema.Cost{Amount: 0, Currency: "USD"}, nil},
		{nil, &schema.Cost{Amount: 0.1, Currency: "USD"}, &schema.Cost{Amount: 0.1, Currency: "USD"}},
	} {
		r := NewDraft(c.start).Finish(Ending{Cost: c.end, Question: none})
		if !reflect.DeepEqual(r.Cost, c.want) {
			t.Errorf("from %+v to %+v: cost %+v, want %+v", c.start, c.end, r.Cost, c.want)
		}
	}
}

// TestTokensFromGeminisQuota: an answer without usage whose _meta carries quota.token_count
// (Gemini CLI 0.61) gives the receipt those tokens; usage, when there, wins; a _meta without
// counts (or negative ones) gives none.
func TestTokensFromGeminisQuota(t *testing.T) {
	quota := json.RawMessage(`{"quota":{"token_count":{"input_tokens":1200,"output_tokens":34},"model_usage":[{"model":"gemini-2.5-flash"}]}}`)
	for _, c := range []struct {
		name        string
		usage, meta json.RawMessage
		want        *Tokens
	}{
		{"quota only", nil, quota, &Tokens{Input: 1200, Output: 34, Total: 1234}},
		{"usage wins", json.RawMessage(`{"inputTokens":4,"outputTokens":1}`), quota, &Tokens{Input: 4, Output: 1, Total: 5}},
		{"no counts", nil, json.RawMessage(`{"quota":{"token_count":{"input_tokens":0,"output_tokens":0}}}`), nil},
		{"negative", nil, json.RawMessage(`{"quota":{"token_count":{"input_tokens":-5,"output_tokens":2}}}`), &Tokens{Output: 2, Total: 2}},
		{"other meta", nil, json.RawMessage(`{"quota":"none"}`), nil},
	} {
		r := NewDraft(nil).Finish(Ending{StopReason: "end_turn", Began: time.Unix(1, 0), End: time.Unix(2, 0), Usage: c.usage, Meta: c.meta})
		if !reflect.DeepEqual(r.Tokens, c.want) {
			t.Errorf("%s: tokens %+v, want %+v", c.name, r.Tokens, c.want)
		}
	}
}
