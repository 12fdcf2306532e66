package elicit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"unicode/utf8"
)

// Bounds of a form elicitation's requestedSchema: an agent's form is a few fields, not a
// document. A schema beyond any of them is refused as malformed.
const (
	MaxSchemaBytes = 64 << 10 // the raw requestedSchema
	MaxFields      = 64       // properties
	MaxChoices     = 256      // enum / oneOf / anyOf items of one field
	MaxName        = 128      // a property name (and a url elicitation's elicitationId), in bytes
	maxText        = 4 << 10  // a title, description or message, in bytes
)

// Field types of the restricted schema ACP allows in a form (ElicitationPropertySchema).
const (
	FieldString  = "string"
	FieldNumber  = "number"
	FieldInteger = "integer"
	FieldBoolean = "boolean"
	FieldArray   = "array" // a multi-select of string choices
)

// String formats a form field may carry. FormatPassword is not in ACP's list; agents use it,
// as MCP servers do, to mark a secret (see Field.Secret).
var formats = map[string]bool{"email": true, "uri": true, "date": true, "date-time": true, "password": true}

// Choice is one choice of an enum field: Value is what is sent, Title what is shown
// (Value again when the schema gave no title).
type Choice struct {
	Value string `json:"value"`
	Title string `json:"title"`
}

// Field is one validated property of a form, in the order the agent sent it. Its JSON is what
// the window renders a form from (protocol.ts ElicitField): the page never reads the schema.
type Field struct {
	Name        string `json:"name"`
	Type        string `json:"type"` // Field*
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
	// Secret: a string with format "password" or writeOnly true. Its value goes to the agent
	// and nowhere else (the transcript shows SecretMask).
	Secret  bool     `json:"secret,omitempty"`
	Format  string   `json:"format,omitempty"`  // string: email | uri | date | date-time | password, or ""
	Choices []Choice `json:"choices,omitempty"` // string: enum/oneOf; array: items.enum/items.anyOf
	// Pattern is a string's pattern as the agent sent it (it compiles as a Go regular
	// expression; Check applies it).
	Pattern string `json:"pattern,omitempty"`
	pattern *regexp.Regexp
	// MinLength, MaxLength (string, in characters) and MinItems, MaxItems (array); nil: none.
	MinLength *int `json:"minLength,omitempty"`
	MaxLength *int `json:"maxLength,omitempty"`
	MinItems  *int `json:"minItems,omitempty"`
	MaxItems  *int `json:"maxItems,omitempty"`
	// Minimum and Maximum bound a number or integer; nil: none.
	Minimum *float64 `json:"minimum,omitempty"`
	Maximum *float64 `json:"maximum,omitempty"`
	// Default is the schema's default as sent, type-checked against Type; nil: none.
	Default json.RawMessage `json:"default,omitempty"`
}

// Schema is a form elicitation's requestedSchema, validated (Parse).
type Schema struct {
	Title       string  `json:"title,omitempty"`
	Description string  `json:"description,omitempty"`
	Fields      []Field `json:"fields"`
}

// Field returns the field named name, or nil.
func (s *Schema) Field(name string) *Field {
	for i := range s.Fields {
		if s.Fields[i].Name == name {
			return &s.Fields[i]
		}
	}
	return nil
}

// Parse validates raw as ACP's restricted form schema: an object whose properties
// are strings, numbers, integers, booleans or multi-selects of string choices, within the
// bounds above. The error names what is wrong, in words the agent's author can act on.
func Parse(raw json.RawMessage) (*Schema, error) {
	if len(raw) > MaxSchemaBytes {
		return nil, fmt.Errorf("requestedSchema is %d bytes, more than the %d allowed", len(raw), MaxSchemaBytes)
	}
	var top struct {
		Type        *string         `json:"type"`
		Title       *string         `json:"title"`
		Description *string         `json:"description"`
		Properties  json.RawMessage `json:"properties"`
		Required    []string        `json:"required"`
	}
	if len(bytes.TrimSpace(raw)) == 0 || bytes.TrimSpace(raw)[0] != '{' || json.Unmarshal(raw, &top) != nil {
		return nil, errors.New("requestedSchema must be a JSON object with type \"object\", properties and required")
	}
	if top.Type != nil && *top.Type != "object" {
		return nil, fmt.Errorf("requestedSchema type must be \"object\", not %q", *top.Type)
	}
	s := &Schema{Title: deref(top.Title), Description: deref(top.Description)}
	if len(s.Title) > maxText || len(s.Description) > maxText {
		return nil, errors.New("requestedSchema title or description is too long")
	}
	names, props, err := orderedObject(top.Properties)
	if err != nil {
		return nil, fmt.Errorf("requestedSchema properties: %w", err)
	}
	if len(names) > MaxFields {
		return nil, fmt.Errorf("requestedSchema has %d properties, more than the %d allowed", len(names), MaxFields)
	}
	for i, name := range names {
		f, err := parseField(name, props[i])
		if err != nil {
			return nil, fmt.Errorf("requestedSchema property %q: %w", name, err)
		}
		s.Fields = append(s.Fields, f)
	}
	for _, name := range top.Required {
		f := s.Field(name)
		if f == nil {
			return nil, fmt.Errorf("requestedSchema requires %q, which is not among its properties", name)
		}
		f.Required = true
	}
	return s, nil
}

// orderedObject splits a JSON object into its keys and values in the order sent (a form shows
// its fields in the agent's order); a missing or null object is empty. Keys must be unique.
func orderedObject(raw json.RawMessage) ([]string, []json.RawMessage, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil, errors.New("must be an object")
	}
	var names []string
	var values []json.RawMessage
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		name, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		switch {
		case name == "" || len(name) > MaxName || !utf8.ValidString(name):
			return nil, nil, fmt.Errorf("a property name must be 1 to %d bytes of text", MaxName)
		case seen[name]:
			return nil, nil, fmt.Errorf("property %q is given twice", name)
		}
		seen[name] = true
		names, values = append(names, name), append(values, v)
		if len(names) > MaxFields {
			break
		}
	}
	return names, values, nil
}

// fieldWire is every keyword a property may carry; pointers tell absent from zero.
type fieldWire struct {
	Type        string          `json:"type"`
	Title       *string         `json:"title"`
	Description *string         `json:"description"`
	Format      *string         `json:"format"`
	WriteOnly   bool            `json:"writeOnly"`
	Enum        []string        `json:"enum"`
	OneOf       []enumOption    `json:"oneOf"`
	MinLength   *float64        `json:"minLength"`
	MaxLength   *float64        `json:"maxLength"`
	Pattern     *string         `json:"pattern"`
	Minimum     *float64        `json:"minimum"`
	Maximum     *float64        `json:"maximum"`
	MinItems    *float64        `json:"minItems"`
	MaxItems    *float64        `json:"maxItems"`
	Items       *itemsWire      `json:"items"`
	Default     json.RawMessage `json:"default"`
}

type enumOption struct {
	Const *string `json:"const"`
	Title *string `json:"title"`
}

type itemsWire struct {
	Type  string       `json:"type"`
	Enum  []string     `json:"enum"`
	AnyOf []enumOption `json:"anyOf"`
}

// parseField validates one property.
func parseField(name string, raw json.RawMessage) (Field, error) {
	var w fieldWire
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &w) != nil {
		return Field{}, errors.New("must be an object with a type (string, number, integer, boolean or array)")
	}
	f := Field{Name: name, Type: w.Type, Title: deref(w.Title), Description: deref(w.Description)}
	if len(f.Title) > maxText || len(f.Description) > maxText {
		return f, errors.New("title or description is too long")
	}
	var err error
	switch w.Type {
	case FieldString:
		err = f.parseString(w)
	case FieldNumber, FieldInteger:
		f.Minimum, f.Maximum = w.Minimum, w.Maximum
		if f.Minimum != nil && f.Maximum != nil && *f.Minimum > *f.Maximum {
			err = errors.New("minimum is greater than maximum")
		}
	case FieldBoolean:
	case FieldArray:
		err = f.parseArray(w)
	default:
		return f, fmt.Errorf("type %q is not one of string, number, integer, boolean, array", w.Type)
	}
	if err != nil {
		return f, err
	}
	if len(w.Default) > 0 && string(w.Default) != "null" {
		if err := f.checkDefault(w.Default); err != nil {
			return f, fmt.Errorf("default: %w", err)
		}
		f.Default = w.Default
	}
	return f, nil
}

func (f *Field) parseString(w fieldWire) error {
	if w.Format != nil {
		if !formats[*w.Format] {
			return fmt.Errorf("format %q is not one of email, uri, date, date-time, password", *w.Format)
		}
		f.Format = *w.Format
	}
	f.Secret = f.Format == "password" || w.WriteOnly
	var err error
	if f.MinLength, err = count("minLength", w.MinLength); err != nil {
		return err
	}
	if f.MaxLength, err = count("maxLength", w.MaxLength); err != nil {
		return err
	}
	if f.MinLength != nil && f.MaxLength != nil && *f.MinLength > *f.MaxLength {
		return errors.New("minLength is greater than maxLength")
	}
	if w.Pattern != nil {
		re, err := regexp.Compile(*w.Pattern)
		if err != nil || len(*w.Pattern) > maxText {
			return fmt.Errorf("pattern %q is not a regular expression agentdesk can check", *w.Pattern)
		}
		f.Pattern, f.pattern = *w.Pattern, re
	}
	if len(w.Enum) > 0 && len(w.OneOf) > 0 {
		return errors.New("has both enum and oneOf")
	}
	f.Choices, err = choices(w.Enum, w.OneOf)
	return err
}

func (f *Field) parseArray(w fieldWire) error {
	if w.Items == nil {
		return errors.New("an array needs items with the choices (items.enum or items.anyOf)")
	}
	if w.Items.Type != "" && w.Items.Type != FieldString {
		return fmt.Errorf("items type %q: only string choices are allowed", w.Items.Type)
	}
	var err error
	if f.Choices, err = choices(w.Items.Enum, w.Items.AnyOf); err != nil {
		return fmt.Errorf("items: %w", err)
	}
	if len(f.Choices) == 0 {
		return errors.New("an array needs items with the choices (items.enum or items.anyOf)")
	}
	if f.MinItems, err = count("minItems", w.MinItems); err != nil {
		return err
	}
	if f.MaxItems, err = count("maxItems", w.MaxItems); err != nil {
		return err
	}
	if f.MinItems != nil && f.MaxItems != nil && *f.MinItems > *f.MaxItems {
		return errors.New("minItems is greater than maxItems")
	}
	return nil
}

// choices turns enum or oneOf/anyOf options into choices: at most MaxChoices, unique.
func choices(enum []string, opts []enumOption) ([]Choice, error) {
	if len(enum)+len(opts) > MaxChoices {
		return nil, fmt.Errorf("more than %d choices", MaxChoices)
	}
	var out []Choice
	for _, v := range enum {
		out = append(out, Choice{Value: v, Title: v})
	}
	for _, o := range opts {
		if o.Const == nil {
			return nil, errors.New("a choice has no const")
		}
		c := Choice{Value: *o.Const, Title: deref(o.Title)}
		if c.Title == "" {
			c.Title = c.Value
		}
		out = append(out, c)
	}
	seen := map[string]bool{}
	for _, c := range out {
		if seen[c.Value] || len(c.Value) > maxText || len(c.Title) > maxText {
			return nil, fmt.Errorf("choice %q is given twice or is too long", c.Value)
		}
		seen[c.Value] = true
	}
	return out, nil
}

// count reads a non-negative whole-number bound; nil when absent.
func count(name string, v *float64) (*int, error) {
	if v == nil {
		return nil, nil
	}
	if *v < 0 || *v != math.Trunc(*v) || *v > math.MaxInt32 {
		return nil, fmt.Errorf("%s must be a whole number from 0", name)
	}
	n := int(*v)
	return &n, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
