package elicit

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/mail"
	"net/url"
	"slices"
	"time"
	"unicode/utf8"
)

// SecretMask is what the value of a secret field becomes everywhere but in the reply to the
// agent: the transcript, the store, exports, the protocol inspector.
const SecretMask = "••••••"

// FieldError is an answer to a form that the schema refuses: Field names the field ("" for
// the form as a whole), Problem says what is wrong in words a person can act on.
type FieldError struct {
	Field   string
	Problem string
}

var _ error = (*FieldError)(nil)

func (e *FieldError) Error() string {
	if e.Field == "" {
		return e.Problem
	}
	return fmt.Sprintf("field %q: %s", e.Field, e.Problem)
}

// CheckContent validates a form's answer against the schema and returns it as it is sent to
// the agent: every field known, the required ones present, each value of its field's type
// (integers as int64, numbers as float64, multi-selects as []string) and within its bounds.
// Values come from JSON (float64, []any) or Go callers (int, []string). The error is a
// *FieldError naming the first field at fault.
func (s *Schema) CheckContent(content map[string]any) (map[string]any, error) {
	out := make(map[string]any, len(content))
	for name := range content {
		if s.Field(name) == nil {
			return nil, &FieldError{Field: name, Problem: "the form has no such field"}
		}
	}
	for i := range s.Fields {
		f := &s.Fields[i]
		v, ok := content[f.Name]
		if !ok || v == nil {
			if f.Required {
				return nil, &FieldError{Field: f.Name, Problem: "is required"}
			}
			continue
		}
		norm, err := f.Check(v)
		if err != nil {
			return nil, &FieldError{Field: f.Name, Problem: err.Error()}
		}
		out[f.Name] = norm
	}
	return out, nil
}

// Masked returns content with the value of every secret field replaced by SecretMask: what
// the transcript keeps of an answer.
func (s *Schema) Masked(content map[string]any) map[string]any {
	out := make(map[string]any, len(content))
	for k, v := range content {
		if f := s.Field(k); f != nil && f.Secret {
			v = SecretMask
		}
		out[k] = v
	}
	return out
}

// Check validates one value of f, as CheckContent does each field's, and returns it normalised;
// the error says what is wrong without naming the field (the caller knows it).
func (f *Field) Check(v any) (any, error) {
	switch f.Type {
	case FieldString:
		s, ok := v.(string)
		if !ok {
			return nil, errors.New("must be text")
		}
		return s, f.checkString(s)
	case FieldBoolean:
		b, ok := v.(bool)
		if !ok {
			return nil, errors.New("must be true or false")
		}
		return b, nil
	case FieldNumber, FieldInteger:
		n, ok := number(v)
		if !ok {
			return nil, errors.New("must be a number")
		}
		if f.Type == FieldInteger && (n != math.Trunc(n) || math.Abs(n) > 1<<53) {
			return nil, errors.New("must be a whole number")
		}
		if f.Minimum != nil && n < *f.Minimum {
			return nil, fmt.Errorf("must be at least %v", *f.Minimum)
		}
		if f.Maximum != nil && n > *f.Maximum {
			return nil, fmt.Errorf("must be at most %v", *f.Maximum)
		}
		if f.Type == FieldInteger {
			return int64(n), nil
		}
		return n, nil
	case FieldArray:
		items, ok := stringList(v)
		if !ok {
			return nil, errors.New("must be a list of choices")
		}
		for i, it := range items {
			if !f.hasChoice(it) {
				return nil, fmt.Errorf("%q is not one of the choices", it)
			}
			if slices.Contains(items[:i], it) {
				return nil, fmt.Errorf("%q is chosen twice", it)
			}
		}
		if f.MinItems != nil && len(items) < *f.MinItems {
			return nil, fmt.Errorf("needs at least %d choices", *f.MinItems)
		}
		if f.MaxItems != nil && len(items) > *f.MaxItems {
			return nil, fmt.Errorf("allows at most %d choices", *f.MaxItems)
		}
		return items, nil
	}
	return nil, fmt.Errorf("has an unknown type %q", f.Type)
}

func (f *Field) checkString(s string) error {
	n := utf8.RuneCountInString(s)
	switch {
	case len(f.Choices) > 0 && !f.hasChoice(s):
		return fmt.Errorf("%q is not one of the choices", s)
	case f.MinLength != nil && n < *f.MinLength:
		return fmt.Errorf("must be at least %d characters", *f.MinLength)
	case f.MaxLength != nil && n > *f.MaxLength:
		return fmt.Errorf("must be at most %d characters", *f.MaxLength)
	case f.pattern != nil && !f.pattern.MatchString(s):
		return fmt.Errorf("does not match the pattern %s", f.Pattern)
	}
	switch f.Format {
	case "email":
		if a, err := mail.ParseAddress(s); err != nil || a.Address != s {
			return errors.New("must be an email address")
		}
	case "uri":
		if u, err := url.Parse(s); err != nil || u.Scheme == "" {
			return errors.New("must be a URI with a scheme (https://…)")
		}
	case "date":
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return errors.New("must be a date (YYYY-MM-DD)")
		}
	case "date-time":
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			return errors.New("must be a date and time (RFC 3339)")
		}
	}
	return nil
}

// checkDefault type-checks a schema's default for f (bounds are the agent's business: a
// default outside them only means the person has to change it).
func (f *Field) checkDefault(raw json.RawMessage) error {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return err
	}
	ok := false
	switch f.Type {
	case FieldString:
		_, ok = v.(string)
	case FieldBoolean:
		_, ok = v.(bool)
	case FieldNumber, FieldInteger:
		_, ok = v.(float64)
	case FieldArray:
		_, ok = stringList(v)
	}
	if !ok {
		return fmt.Errorf("is not a %s", f.Type)
	}
	return nil
}

// DefaultValue is f's default decoded from JSON (float64, string, bool, []any), nil when none.
func (f *Field) DefaultValue() any {
	var v any
	if len(f.Default) == 0 || json.Unmarshal(f.Default, &v) != nil {
		return nil
	}
	return v
}

func (f *Field) hasChoice(v string) bool {
	return slices.ContainsFunc(f.Choices, func(c Choice) bool { return c.Value == v })
}

// number reads a JSON or Go number.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, !math.IsNaN(n) && !math.IsInf(n, 0)
	case float32:
		return float64(n), true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case int32:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

// stringList reads a JSON array of strings or a []string.
func stringList(v any) ([]string, bool) {
	switch l := v.(type) {
	case []string:
		return l, true
	case []any:
		out := make([]string, 0, len(l))
		for _, it := range l {
			s, ok := it.(string)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	return nil, false
}
