package attach

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"agentdesk/backend/acp/fsys"
	"agentdesk/backend/acp/schema"
)

// Build turns attachments into prompt content blocks the agent accepts (caps), and
// says what the transcript shows of each. It reads files: call it without holding locks.
// allowed are the real paths of files outside the folders the person chose themselves (acp.Session.AllowFile).
func Build(folder string, extra []string, allowed map[string]bool, agent string, caps schema.PromptCapabilities, atts []Attachment) ([]schema.ContentBlock, []Info, error) {
	if len(atts) == 0 {
		return nil, nil, nil
	}
	var root *fsys.Folders
	defer func() {
		if root != nil {
			root.Close()
		}
	}()
	blocks := make([]schema.ContentBlock, 0, len(atts))
	infos := make([]Info, 0, len(atts))
	for _, a := range atts {
		var b schema.ContentBlock
		var info Info
		var err error
		switch a.Kind {
		case KindFile:
			if root == nil {
				if root, err = fsys.NewFolders(folder, extra); err != nil {
					return nil, nil, err
				}
			}
			b, info, err = fileBlock(root, folder, allowed, caps, a.Path)
		case KindImage:
			b, info, err = imageBlock(agent, caps, a)
		default:
			err = &Error{Name: orDefault(a.Name, a.Path), Reason: UnknownKind, Detail: fmt.Sprintf("unknown attachment kind %q (file or image)", a.Kind)}
		}
		if err != nil {
			return nil, nil, err
		}
		blocks = append(blocks, b)
		infos = append(infos, info)
	}
	return blocks, infos, nil
}

// fileBlock reads a file of the session folder: an embedded resource when the agent accepts
// embedded context and the file is non-empty text of at most MaxEmbedBytes, else a link.
func fileBlock(root *fsys.Folders, folder string, allowed map[string]bool, caps schema.PromptCapabilities, path string) (schema.ContentBlock, Info, error) {
	name := filepath.Base(path)
	if strings.TrimSpace(path) == "" {
		return schema.ContentBlock{}, Info{}, &Error{Name: "a file", Reason: NoPath, Detail: "no path given"}
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(folder, path)
	}
	path = filepath.Clean(path)
	real, err := root.Resolve(path)
	if err != nil {
		if chosen, cerr := filepath.EvalSymlinks(path); cerr == nil && allowed[chosen] {
			real, err = chosen, nil // the person chose it outside the folders, in the open dialog
		}
	}
	if err != nil {
		where := "the session folder " + folder
		if root.Len() > 1 {
			where = "the session's folders"
		}
		return schema.ContentBlock{}, Info{}, &Error{Name: name, Reason: Outside, Detail: fmt.Sprintf("%s is outside %s", path, where)}
	}
	st, err := os.Stat(real)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return schema.ContentBlock{}, Info{}, &Error{Name: name, Reason: Missing, Detail: fmt.Sprintf("%s does not exist (was it moved or deleted?)", path)}
	case err != nil:
		return schema.ContentBlock{}, Info{}, &Error{Name: name, Reason: Unreadable, Detail: err.Error()}
	case st.IsDir():
		return schema.ContentBlock{}, Info{}, &Error{Name: name, Reason: IsFolder, Detail: "it is a folder"}
	case !st.Mode().IsRegular():
		return schema.ContentBlock{}, Info{}, &Error{Name: name, Reason: NotRegular, Detail: "it is not a regular file"}
	}
	size := st.Size()
	head, err := readHead(real, MaxEmbedBytes+1)
	if err != nil {
		return schema.ContentBlock{}, Info{}, &Error{Name: name, Reason: Unreadable, Detail: fmt.Sprintf("could not read it: %v", err)}
	}
	text := isText(head)
	mimeType := fileMime(name, head, text)
	uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
	info := Info{Kind: KindFile, Name: name, Path: path, MimeType: mimeType, Size: size, Sent: SentLink}
	if caps.EmbeddedContext && text && size > 0 && len(head) <= MaxEmbedBytes {
		info.Sent, info.Size = SentEmbedded, int64(len(head))
		return schema.ContentBlock{Type: "resource", Resource: &schema.EmbeddedResource{URI: uri, Text: string(head), MimeType: mimeType}}, info, nil
	}
	return schema.ContentBlock{Type: "resource_link", URI: uri, Name: name, MimeType: mimeType, Size: &size}, info, nil
}

// imageBlock checks pasted image data against the agent's capability and the size cap.
func imageBlock(agent string, caps schema.PromptCapabilities, a Attachment) (schema.ContentBlock, Info, error) {
	name := orDefault(a.Name, "pasted image")
	if !caps.Image {
		return schema.ContentBlock{}, Info{}, &Error{Name: name, Reason: ImagesRefused,
			Detail: fmt.Sprintf("%s does not accept images", agent)}
	}
	mimeType, _, err := mime.ParseMediaType(a.MimeType)
	if err != nil || !strings.HasPrefix(mimeType, "image/") {
		return schema.ContentBlock{}, Info{}, &Error{Name: name, Reason: NotImage, Detail: fmt.Sprintf("%q is not an image type", a.MimeType)}
	}
	if n := int64(base64.StdEncoding.DecodedLen(len(a.Data))); n > MaxImageBytes+3 {
		return schema.ContentBlock{}, Info{}, tooBig(name, n)
	}
	data, err := base64.StdEncoding.DecodeString(a.Data)
	if err != nil || len(data) == 0 {
		return schema.ContentBlock{}, Info{}, &Error{Name: name, Reason: BadData, Detail: "its data is not base64-encoded image data"}
	}
	if len(data) > MaxImageBytes {
		return schema.ContentBlock{}, Info{}, tooBig(name, int64(len(data)))
	}
	info := Info{Kind: KindImage, Name: name, MimeType: mimeType, Size: int64(len(data)), Sent: SentImage}
	info.Width, info.Height, info.Thumbnail = thumbnail(data)
	return schema.ContentBlock{Type: "image", Data: a.Data, MimeType: mimeType}, info, nil
}

// tooBig refuses an image of n bytes.
func tooBig(name string, n int64) *Error {
	return &Error{Name: name, Reason: TooLarge, Size: n,
		Detail: fmt.Sprintf("the image is %.1f MiB; images up to %d MiB can be attached", float64(n)/(1<<20), MaxImageBytes>>20)}
}

// readHead reads at most n bytes of the file at path.
func readHead(path string, n int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, n))
}

// isText reports whether data looks like text: valid UTF-8 (a rune cut by the read limit is
// allowed) without NUL bytes.
func isText(data []byte) bool {
	if bytes.IndexByte(data, 0) >= 0 {
		return false
	}
	if utf8.Valid(data) {
		return true
	}
	for cut := 1; cut < utf8.UTFMax && cut <= len(data); cut++ {
		if utf8.Valid(data[:len(data)-cut]) {
			return len(data) > MaxEmbedBytes // only a read that was cut short may end mid-rune
		}
	}
	return false
}

// fileMime is the file's media type without parameters: by extension, else sniffed.
func fileMime(name string, head []byte, text bool) string {
	t := mime.TypeByExtension(filepath.Ext(name))
	if t == "" {
		if text {
			return "text/plain"
		}
		t = http.DetectContentType(head)
	}
	if mt, _, err := mime.ParseMediaType(t); err == nil {
		return mt
	}
	return t
}

func orDefault(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}
