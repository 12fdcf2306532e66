// Markdown for untrusted agent text: marked, then DOMPurify. The result is the only string the
// page ever renders with {@html}.
import DOMPurify from 'dompurify';
import { Marked } from 'marked';

const marked = new Marked({ gfm: true, breaks: false, async: false });

const FORBID_TAGS = [
  'script',
  'style',
  'link',
  'meta',
  'base',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'form',
  'input',
  'button',
  'textarea',
  'select',
  'option',
  'svg',
  'math',
  'template',
  'noscript',
];

const FORBID_ATTR = ['style', 'target', 'srcset', 'action', 'formaction', 'xlink:href', 'ping'];

/** Only these URL schemes survive in href/src (plus relative and #fragment links). */
const ALLOWED_URI = /^(?:(?:https?|mailto):|#|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;

let hooked = false;

function ensureHooks(): void {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'A') {
      node.setAttribute('rel', 'noopener noreferrer');
      const href = node.getAttribute('href') ?? '';
      if (/^\s*(javascript|vbscript|data):/i.test(href)) node.removeAttribute('href');
    }
    if (node.nodeName === 'IMG') {
      const src = node.getAttribute('src') ?? '';
      // The CSP blocks remote images anyway; keep only inline data: images.
      if (!/^data:image\/(png|gif|jpe?g|webp);/i.test(src)) node.removeAttribute('src');
    }
  });
}

/** Sanitises HTML produced from untrusted input. */
export function sanitize(html: string): string {
  ensureHooks();
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS,
    FORBID_ATTR,
    ALLOW_DATA_ATTR: false,
    ALLOW_UNKNOWN_PROTOCOLS: false,
    ALLOWED_URI_REGEXP: ALLOWED_URI,
    RETURN_TRUSTED_TYPE: false,
  }) as string;
}

/** Untrusted Markdown -> safe HTML. */
export function renderMarkdown(text: string): string {
  if (!text) return '';
  let html: string;
  try {
    html = marked.parse(text, { async: false }) as string;
  } catch {
    return `<pre>${escapeHTML(text)}</pre>`;
  }
  return sanitize(html);
}

export function escapeHTML(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
