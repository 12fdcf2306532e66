// Package attach turns what a person attaches to a prompt (a file of the session's folders, one
// they chose elsewhere, or a pasted image) into the content blocks the agent is sent, and says
// what the transcript keeps of each (Info: never the content, an image's thumbnail at most).
//
// Guarantees:
//   - Confined: a file is read only inside the session's folders (resolved through
//     fsys.Folders, so a symlink cannot lead out) or when its real path is one the person chose
//     themselves (the allowed set, acp.Session.AllowFile); an agent cannot add one.
//   - Bounded: text is embedded only when the agent accepts embedded context and the file is
//     non-empty text of at most MaxEmbedBytes (else it is sent as a link the agent reads
//     itself); an image is at most MaxImageBytes decoded, and its thumbnail at most ThumbSize
//     pixels a side. Only what the bound needs is read.
//   - All or nothing: Build refuses the whole prompt at the first attachment it cannot send,
//     with an *Error whose Reason says why (for the edge to say what to do) and whose Detail
//     names the path, folder or type.
//
// Build reads files: call it without holding locks. It keeps no state and is safe for
// concurrent use.
package attach
