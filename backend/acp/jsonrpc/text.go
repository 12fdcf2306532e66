package jsonrpc

import (
	"errors"
	"unsafe"

	"github.com/go-json-experiment/json/jsontext"
)

// Text is a JSON string that may be huge (a message chunk's text), decoded by Unmarshal with
// one copy of its text where a string takes two: json v2 unquotes a string with escapes into a
// buffer, then copies that buffer into the string, so a huge text was in memory twice. Text
// keeps the unquoted buffer as the string. It decodes exactly as a string does otherwise: null,
// other kinds and their errors are the string decoder's, invalid UTF-8 is replaced.
type Text string

// UnmarshalJSONFrom implements json v2's UnmarshalerFrom; Unmarshal calls it.
func (t *Text) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	if dec.PeekKind() != '"' {
		return errors.ErrUnsupported // not a string: the string decoder's semantics and errors
	}
	val, err := dec.ReadValue()
	if err != nil {
		return err
	}
	// The text is shorter than its quoted form, the room AppendUnquote asks for; invalid UTF-8
	// is replaced (the error says only that), as encoding/json does.
	buf, _ := jsontext.AppendUnquote(make([]byte, 0, len(val)), val)
	if cap(buf)-len(buf) > len(buf)/2 {
		// Mostly escapes (\u of every character): a copy of the text's size rather than keep a
		// buffer of more than one and a half times it for as long as the text lives.
		*t = Text(buf)
		return nil
	}
	// buf is this function's own and is never written again, so the string may be its memory.
	*t = Text(unsafe.String(unsafe.SliceData(buf), len(buf)))
	return nil
}
