package schema

import (
	"encoding/json"
	"fmt"
)

// BlockText renders the content blocks a message can show as text; others are not text.
func BlockText(b ContentBlock) (string, bool) {
	switch b.Type {
	case "text":
		return b.Text, true
	case "resource_link":
		name := b.Name
		if name == "" {
			name = b.URI
		}
		return fmt.Sprintf("[%s](%s)", name, b.URI), true
	}
	return "", false
}

// ContentBlock is one piece of prompt or message content: text, resource_link (URI, Name,
// MimeType, Size), resource (Resource) or image (Data, MimeType). Decoded blocks keep their raw
// JSON so unknown types are never shown as empty text.
type ContentBlock struct {
	Type     string            `json:"type"`
	Text     string            `json:"text,omitempty"`
	URI      string            `json:"uri,omitempty"`
	Name     string            `json:"name,omitempty"`
	MimeType string            `json:"mimeType,omitempty"`
	Data     string            `json:"data,omitempty"` // image, audio: base64
	Size     *int64            `json:"size,omitempty"` // resource_link: bytes
	Resource *EmbeddedResource `json:"resource,omitempty"`

	Raw json.RawMessage `json:"-"`
}

// EmbeddedResource is the content of a resource block: Text, or Blob (base64) for binary data.
type EmbeddedResource struct {
	URI      string `json:"uri"`
	Text     string `json:"text,omitempty"`
	Blob     string `json:"blob,omitempty"`
	MimeType string `json:"mimeType,omitempty"`
}

var _ json.Unmarshaler = (*ContentBlock)(nil)

// UnmarshalJSON keeps the raw block beside the decoded fields (a copy: a json.Decoder reuses
// its buffer).
func (b *ContentBlock) UnmarshalJSON(data []byte) error {
	type plain ContentBlock
	var p plain
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	*b = ContentBlock(p)
	b.Raw = append(json.RawMessage(nil), data...)
	return nil
}

// TextBlock is a text content block.
func TextBlock(text string) ContentBlock { return ContentBlock{Type: "text", Text: text} }
