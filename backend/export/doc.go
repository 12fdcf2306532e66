// Package export renders a saved session as text that leaves agentdesk, and saves it to a file:
// Render (Markdown or JSON, for the window's export and `agentdesk show`), FileName (the
// default name of the file), WithExtension (the chosen path), DescribeSaveError (the one
// message for a write that failed; the write itself is atomicfile.Write); UsageCSV (the usage ledger as CSV). It asks for
// no path itself (the window's save dialog does) and imports no Wails.
//
// Guarantees:
//
//   - Everything Render returns has every secret value its masker knows masked, in either
//     format; a JSON export stays valid JSON.
//   - A default file name is one line of at most 80 characters (and 200 bytes), never hidden,
//     holds no path separator, no character other systems refuse and no invisible format
//     character, and ends with the format's extension.
package export
