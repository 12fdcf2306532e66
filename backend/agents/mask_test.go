package agents

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestMaskerHidesValuesAndTheirJSONForms(t *testing.T) {
	m := NewMasker()
	if m.Mask("sk-123456") != "sk-123456" {
		t.Fatal("an empty masker changed text")
	}
	m.Add("sk-123456", `pa"ss\word`, "abc") // "abc" is too short to mask
	raw, _ := json.Marshal(map[string]string{"text": `key sk-123456 and pa"ss\word`})
	got := string(m.MaskBytes(raw))
	if strings.Contains(got, "123456") || strings.Contains(got, `ss\\word`) || strings.Count(got, Mask) != 2 {
		t.Fatalf("masked JSON %s", got)
	}
	if !json.Valid([]byte(got)) {
		t.Fatalf("masking broke the JSON: %s", got)
	}
	if m.Mask("abc abc") != "abc abc" {
		t.Fatal("a value shorter than MinSecretLen was masked")
	}
	m.Add("sk-1234567890") // contains the first: masked whole, not as "••••••7890"
	if got := m.Mask("x sk-1234567890 y"); got != "x "+Mask+" y" {
		t.Fatalf("overlapping values: %q", got)
	}
	var nilMasker *Masker
	if nilMasker.Mask("sk-123456") != "sk-123456" {
		t.Fatal("a nil masker must pass text through")
	}
}

func TestMaskWriterCatchesValuesSplitAcrossWrites(t *testing.T) {
	m := NewMasker()
	m.Add("sk-SECRET-42")
	var out bytes.Buffer
	w := m.Writer(&out)
	for _, chunk := range []string{"your key is sk-SE", "CRET", "-42, and sk-", "nothing\n", "end sk"} {
		if _, err := w.Write([]byte(chunk)); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.HasSuffix(out.String(), "end ") {
		t.Fatalf("text that may start a secret was written before Flush: %q", out.String())
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	want := "your key is " + Mask + ", and sk-nothing\nend sk"
	if out.String() != want {
		t.Fatalf("got %q\nwant %q", out.String(), want)
	}
}

func TestMaskerValuesAreLongestFirstWithTheirJSONForms(t *testing.T) {
	var none *Masker
	if none.Values() != nil || len(NewMasker().Values()) != 0 {
		t.Fatal("a masker without values listed some")
	}
	m := NewMasker()
	m.Add("sk-123456", `pa"ss`, "sk-1234567890")
	got := strings.Join(m.Values(), " | ")
	if want := `sk-1234567890 | sk-123456 | pa\"ss | pa"ss`; got != want {
		t.Fatalf("Values() = %s, want %s", got, want)
	}
}

// A secret shaped "<scheme> <token>" or "key=value" hides its token alone too, when the token is
// long enough not to be an ordinary word.
func TestMaskerHidesTheTokenOfASchemeOrKeyValue(t *testing.T) {
	m := NewMasker()
	m.Add("Bearer tok-4242-abcd", "Basic dXNlcjpwYXNz", "api_key=k3y-value-77", "Authorization=Token nested-9876",
		"Token on", "debug=yes") // parts shorter than MinTokenLen stay
	for text, want := range map[string]string{
		"echo tok-4242-abcd":                            "echo " + Mask,
		"curl -H 'Authorization: Bearer tok-4242-abcd'": "curl -H 'Authorization: " + Mask + "'",
		"user:pass is dXNlcjpwYXNz":                     "user:pass is " + Mask,
		"key k3y-value-77":                              "key " + Mask,
		"the token nested-9876":                         "the token " + Mask,
		"Token on, debug=yes":                           Mask + ", " + Mask,
		"turn it on, yes":                               "turn it on, yes",
	} {
		if got := m.Mask(text); got != want {
			t.Errorf("Mask(%q) = %q, want %q", text, got, want)
		}
	}
	raw, _ := json.Marshal(map[string]string{"text": "the token is tok-4242-abcd"})
	if got := string(m.MaskBytes(raw)); strings.Contains(got, "tok-4242") || !strings.Contains(got, Mask) {
		t.Errorf("the token in a raw message: %s", got)
	}
}

// A message without a secret (nearly every one, a huge line too) is journaled as it came:
// masking neither copies it nor allocates; one with a secret is masked in a copy.
func TestMaskBytesLeavesTextWithoutAValueUncopied(t *testing.T) {
	m := NewMasker()
	m.Add("sk-123456", "Bearer tok-abcdefgh")
	line := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"text":"` + strings.Repeat("word ", 1<<18) + `"}}`)
	if allocs := testing.AllocsPerRun(10, func() {
		if out := m.MaskBytes(line); &out[0] != &line[0] {
			t.Fatal("a line without a secret was copied")
		}
		if m.Mask(string(line[:100])) == "" {
			t.Fatal("Mask lost the text")
		}
	}); allocs > 1 { // the string made for Mask
		t.Fatalf("masking text without a secret allocated %.0f times", allocs)
	}
	secret := []byte(`{"text":"use tok-abcdefgh now"}`)
	before := string(secret)
	if got := string(m.MaskBytes(secret)); got != `{"text":"use `+Mask+` now"}` {
		t.Fatalf("masked %s", got)
	}
	if string(secret) != before {
		t.Fatal("MaskBytes changed its argument")
	}
}
