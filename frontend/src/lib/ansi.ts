// A terminal's output with its colours, as HTML for a tool card. The Go side keeps only the
// colour sequences (SGR) of what a command printed (backend/acp/termfilter.go); ansi_up turns
// them into spans and escapes everything else as text. Its result still goes through DOMPurify,
// allowing nothing but spans with a class and a style: agent output is untrusted, and a
// renderer's bug must not become markup in a webview that can call the backend.
import { AnsiUp } from 'ansi_up';
import DOMPurify from 'dompurify';

/** The HTML of terminal output `text` (colour sequences become spans; all else is escaped text). */
export function terminalHTML(text: string): string {
  if (!text.includes('\x1b')) return escapeHTML(text); // most output: no parser, no sanitiser
  const au = new AnsiUp(); // a fresh one: the colour state must not leak from another card
  au.use_classes = true; // the 16 colours follow the theme (app.css); 256 and true colours are inline styles
  au.url_allowlist = {}; // no links, whatever reaches it
  return DOMPurify.sanitize(au.ansi_to_html(text), { ALLOWED_TAGS: ['span'], ALLOWED_ATTR: ['class', 'style'] });
}

/** text with the characters that mean something in HTML escaped. */
function escapeHTML(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
