// Package schema is the Agent Client Protocol's wire format as agentdesk speaks it (ACP v1):
// method names, error codes, stop reasons, permission option kinds, and the params and results
// of the calls agentdesk makes and serves (initialize, session/*, fs/*, terminal/*), with the
// content blocks and session/update payloads they carry.
//
// It holds no state and does no I/O: types, constants and decoders only, so every part of the
// engine (the session, file serving, terminals, the change ledger) and its tests can share them
// without importing the session.
//
// Guarantees:
//   - Decoded values keep their raw JSON where agentdesk may need to show or keep what it does
//     not understand (ContentBlock.Raw, ToolCallContent.Raw, Update.Raw): an unknown block or
//     update kind is never shown as empty text.
//   - DecodeUpdate and DecodeNotification decide by the discriminator alone (sessionUpdate): a
//     known kind is never inferred from field shapes, and a known kind whose fields do not
//     decode is an error, its Kind and Raw still set.
package schema
