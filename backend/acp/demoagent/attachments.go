package demoagent

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	_ "image/gif" // decoders for image.DecodeConfig
	_ "image/jpeg"
	_ "image/png"
	"net/url"
	"path"
	"strings"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/schema"
)

// describeAttachments says, for each non-text block of a prompt, what the demo agent received:
// "notes.md (embedded, 1.2 kB)", "main.go (link, 3.4 kB)", "a PNG image (640×480)".
func describeAttachments(prompt []schema.ContentBlock) []string {
	var out []string
	for _, b := range prompt {
		switch b.Type {
		case "text":
		case "resource_link":
			d := b.Name + " (link"
			if b.Size != nil {
				d += ", " + acp.HumanSize(*b.Size)
			}
			out = append(out, d+")")
		case "resource":
			if b.Resource == nil {
				out = append(out, "an empty resource")
				continue
			}
			n := int64(len(b.Resource.Text))
			if b.Resource.Blob != "" {
				n = int64(base64.StdEncoding.DecodedLen(len(b.Resource.Blob)))
			}
			name := b.Resource.URI
			if u, err := url.Parse(name); err == nil {
				name = path.Base(u.Path)
			}
			out = append(out, fmt.Sprintf("%s (embedded, %s)", name, acp.HumanSize(n)))
		case "image":
			format := strings.ToUpper(strings.TrimPrefix(b.MimeType, "image/"))
			d := "a " + format + " image"
			if data, err := base64.StdEncoding.DecodeString(b.Data); err == nil {
				if cfg, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
					d += fmt.Sprintf(" (%d×%d)", cfg.Width, cfg.Height)
				}
			}
			out = append(out, d)
		default:
			out = append(out, "a "+b.Type+" block")
		}
	}
	return out
}

// acknowledge tells the user what was attached to the prompt, when anything was.
func (s *script) acknowledge() bool {
	n := len(s.attachments)
	if n == 0 {
		return true
	}
	what := "attachment"
	if n > 1 {
		what += "s"
	}
	return s.stream("agent_message_chunk", fmt.Sprintf("I see %d %s: %s.", n, what, strings.Join(s.attachments, ", ")))
}
