package attach

import "fmt"

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
	KindFile  = "file"  // a file in the session folder
	KindImage = "image" // image data (a pasted image)
)

// How an attachment was sent to the agent (Info.Sent).
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

// Info is what the transcript keeps of an attachment: enough to show it (live and in
// the history), not its content. An image keeps a small thumbnail.
type Info struct {
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

// Error is a refused attachment: Reason says why, for the edge to say what to do; Detail
// states the fault with its particulars (the path, the folder, the type).
type Error struct {
	Name   string
	Reason Reason
	Size   int64 // TooLarge: the image's size in bytes (the limit is MaxImageBytes)
	Detail string
}

var _ error = (*Error)(nil)

// Error is "cannot attach NAME: DETAIL".
func (e *Error) Error() string { return fmt.Sprintf("cannot attach %s: %s", e.Name, e.Detail) }

// Reason says why an attachment was refused.
type Reason string

// Why an attachment was refused.
const (
	UnknownKind   Reason = "unknown_kind"   // Kind is neither file nor image
	NoPath        Reason = "no_path"        // a file without a path
	Outside       Reason = "outside"        // a file outside the session folder
	Missing       Reason = "missing"        // a file that does not exist
	Unreadable    Reason = "unreadable"     // a file that cannot be read (Detail says why)
	IsFolder      Reason = "folder"         // a folder, not a file
	NotRegular    Reason = "not_regular"    // a device, FIFO or socket
	ImagesRefused Reason = "images_refused" // the agent does not accept images
	NotImage      Reason = "not_image"      // the MIME type is not an image's
	BadData       Reason = "bad_data"       // the data is not base64 image data
	TooLarge      Reason = "too_large"      // an image over MaxImageBytes (Size)
)
