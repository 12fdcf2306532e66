package acp

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

// Limits on what a prompt may carry.
const (
	// MaxEmbedBytes is the largest text file sent as an embedded resource; a larger one (or any
	// binary file) is sent as a resource link, which the agent reads itself.
	MaxEmbedBytes = 256 << 10
	// MaxImageBytes is the largest image (decoded) that can be attached.
	MaxImageBytes = 10 << 20
)

// Attachment kinds.
const (
	AttachFile  = "file"  // a file in the session folder
	AttachImage = "image" // image data (a pasted image)
)

// How an attachment was sent to the agent (AttachmentInfo.Sent).
const (
	SentLink     = "link"     // a resource_link block: the agent reads the file itself
	SentEmbedded = "embedded" // a resource block with the file's text
	SentImage    = "image"    // an image block
)

// Attachment is something the user attaches to a prompt: a file of the session folder (Path,
// absolute or relative to the folder) or an image (Data, base64, of type MimeType, with a Name
// to show).
type Attachment struct {
	Kind     string `json:"kind"` // file | image
	Path     string `json:"path,omitempty"`
	Name     string `json:"name,omitempty"`
	MimeType string `json:"mimeType,omitempty"`
	Data     string `json:"data,omitempty"`
}

// AttachmentInfo is what the transcript keeps of an attachment: enough to show it (live and in
// the history), not its content. An image keeps a small thumbnail.
type AttachmentInfo struct {
	Kind      string `json:"kind"` // file | image
	Name      string `json:"name"`
	Path      string `json:"path,omitempty"` // file: absolute
	MimeType  string `json:"mimeType,omitempty"`
	Size      int64  `json:"size"`            // bytes (an image's decoded data)
	Sent      string `json:"sent"`            // link | embedded | image
	Width     int    `json:"width,omitempty"` // image, when its format is known
	Height    int    `json:"height,omitempty"`
	Thumbnail string `json:"thumbnail,omitempty"` // image: a data: URL of at most ThumbSize pixels
}

// AttachError is a refused attachment: Reason says why, for the edge to say what to do; Detail
// states the fault with its particulars (the path, the folder, the type).
type AttachError struct {
	Name   string
	Reason AttachReason
	Size   int64 // AttachTooLarge: the image's size in bytes (the limit is MaxImageBytes)
	Detail string
}

var _ error = (*AttachError)(nil)

// Error is "cannot attach NAME: DETAIL".
func (e *AttachError) Error() string { return fmt.Sprintf("cannot attach %s: %s", e.Name, e.Detail) }

// AttachReason says why an attachment was refused.
type AttachReason string

// Why an attachment was refused.
const (
	AttachUnknownKind   AttachReason = "unknown_kind"   // Kind is neither file nor image
	AttachNoPath        AttachReason = "no_path"        // a file without a path
	AttachOutside       AttachReason = "outside"        // a file outside the session folder
	AttachMissing       AttachReason = "missing"        // a file that does not exist
	AttachUnreadable    AttachReason = "unreadable"     // a file that cannot be read (Detail says why)
	AttachIsFolder      AttachReason = "folder"         // a folder, not a file
	AttachNotRegular    AttachReason = "not_regular"    // a device, FIFO or socket
	AttachImagesRefused AttachReason = "images_refused" // the agent does not accept images
	AttachNotImage      AttachReason = "not_image"      // the MIME type is not an image's
	AttachBadData       AttachReason = "bad_data"       // the data is not base64 image data
	AttachTooLarge      AttachReason = "too_large"      // an image over MaxImageBytes (Size)
)

// buildAttachments turns attachments into prompt content blocks the agent accepts (caps), and
// says what the transcript shows of each. It reads files: call it without holding locks.
// allowed are the real paths of files outside the folders the person chose themselves (AllowFile).
func buildAttachments(folder string, extra []string, allowed map[string]bool, agent string, caps schema.PromptCapabilities, atts []Attachment) ([]schema.ContentBlock, []AttachmentInfo, error) {
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
	infos := make([]AttachmentInfo, 0, len(atts))
	for _, a := range atts {
		var b schema.ContentBlock
		var info AttachmentInfo
		var err error
		switch a.Kind {
		case AttachFile:
			if root == nil {
				if root, err = fsys.NewFolders(folder, extra); err != nil {
					return nil, nil, err
				}
			}
			b, info, err = fileBlock(root, folder, allowed, caps, a.Path)
		case AttachImage:
			b, info, err = imageBlock(agent, caps, a)
		default:
			err = &AttachError{Name: orDefault(a.Name, a.Path), Reason: AttachUnknownKind, Detail: fmt.Sprintf("unknown attachment kind %q (file or image)", a.Kind)}
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
func fileBlock(root *fsys.Folders, folder string, allowed map[string]bool, caps schema.PromptCapabilities, path string) (schema.ContentBlock, AttachmentInfo, error) {
	name := filepath.Base(path)
	if strings.TrimSpace(path) == "" {
		return schema.ContentBlock{}, AttachmentInfo{}, &AttachError{Name: "a file", Reason: AttachNoPath, Detail: "no path given"}
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
		return schema.ContentBlock{}, AttachmentInfo{}, &AttachError{Name: name, Reason: AttachOutside, Detail: fmt.Sprintf("%s is outside %s", path, where)}
	}
	st, err := os.Stat(real)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return schema.ContentBlock{}, AttachmentInfo{}, &AttachError{Name: name, Reason: AttachMissing, Detail: fmt.Sprintf("%s does not exist (was it moved or deleted?)", path)}
	case err != nil:
		return schema.ContentBlock{}, AttachmentInfo{}, &AttachError{Name: name, Reason: AttachUnreadable, Detail: err.Error()}
	case st.IsDir():
		return schema.ContentBlock{}, AttachmentInfo{}, &AttachError{Name: name, Reason: AttachIsFolder, Detail: "it is a folder"}
	case !st.Mode().IsRegular():
		return schema.ContentBlock{}, AttachmentInfo{}, &AttachError{Name: name, Reason: AttachNotRegular, Detail: "it is not a regular file"}
	}
	size := st.Size()
	head, err := readHead(real, MaxEmbedBytes+1)
	if err != nil {
		return schema.ContentBlock{}, AttachmentInfo{}, &AttachError{Name: name, Reason: AttachUnreadable, Detail: fmt.Sprintf("could not read it: %v", err)}
	}
	text := isText(head)
	mimeType := fileMime(name, head, text)
	uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
	info := AttachmentInfo{Kind: AttachFile, Name: name, Path: path, MimeType: mimeType, Size: size, Sent: SentLink}
	if caps.EmbeddedContext && text && size > 0 && len(head) <= MaxEmbedBytes {
		info.Sent, info.Size = SentEmbedded, int64(len(head))
		return schema.ContentBlock{Type: "resource", Resource: &schema.EmbeddedResource{URI: uri, Text: string(head), MimeType: mimeType}}, info, nil
	}
	return schema.ContentBlock{Type: "resource_link", URI: uri, Name: name, MimeType: mimeType, Size: &size}, info, nil
}

// imageBlock checks pasted image data against the agent's capability and the size cap.
func imageBlock(agent string, caps schema.PromptCapabilities, a Attachment) (schema.ContentBlock, AttachmentInfo, error) {
	name := orDefault(a.Name, "pasted image")
	if !caps.Image {
		return schema.ContentBlock{}, AttachmentInfo{}, &AttachError{Name: name, Reason: AttachImagesRefused,
			Detail: fmt.Sprintf("%s does not accept images", agent)}
	}
	mimeType, _, err := mime.ParseMediaType(a.MimeType)
	if err != nil || !strings.HasPrefix(mimeType, "image/") {
		return schema.ContentBlock{}, AttachmentInfo{}, &AttachError{Name: name, Reason: AttachNotImage, Detail: fmt.Sprintf("%q is not an image type", a.MimeType)}
	}
	if n := int64(base64.StdEncoding.DecodedLen(len(a.Data))); n > MaxImageBytes+3 {
		return schema.ContentBlock{}, AttachmentInfo{}, tooBig(name, n)
	}
	data, err := base64.StdEncoding.DecodeString(a.Data)
	if err != nil || len(data) == 0 {
		return schema.ContentBlock{}, AttachmentInfo{}, &AttachError{Name: name, Reason: AttachBadData, Detail: "its data is not base64-encoded image data"}
	}
	if len(data) > MaxImageBytes {
		return schema.ContentBlock{}, AttachmentInfo{}, tooBig(name, int64(len(data)))
	}
	info := AttachmentInfo{Kind: AttachImage, Name: name, MimeType: mimeType, Size: int64(len(data)), Sent: SentImage}
	info.Width, info.Height, info.Thumbnail = thumbnail(data)
	return schema.ContentBlock{Type: "image", Data: a.Data, MimeType: mimeType}, info, nil
}

// tooBig refuses an image of n bytes.
func tooBig(name string, n int64) *AttachError {
	return &AttachError{Name: name, Reason: AttachTooLarge, Size: n,
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
