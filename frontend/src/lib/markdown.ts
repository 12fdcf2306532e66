// Markdown for untrusted agent text: marked (code blocks highlighted), then DOMPurify. The result
// is the only string the page ever renders with {@html}.
//
// Code highlighting uses highlight.js: it is well kept (maintained, audited, no dependencies),
// it tokenises with precompiled regular expressions and never evaluates code at run time (no
// eval/new Function, so it runs under our CSP with script-src 'self'), and its output is plain
// <span class="hljs-..."> elements with classes only (no inline styles), which the sanitiser keeps
// and the stylesheet colours from CSS variables (light and dark). Only the core and the languages
// below are bundled, each registered by hand, to keep the bundle small. Highlighting runs before
// DOMPurify, so its output goes through the same strict sanitiser as everything else.
import DOMPurify from 'dompurify';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { Marked, type Tokens } from 'marked';

// Aliases come with each language (ts, js, sh, zsh, console, html, svg, md, yml, py, rs, golang,
// patch, ...); hljs.getLanguage resolves them.
const LANGUAGES = { bash, css, diff, go, javascript, json, markdown, python, rust, shell, sql, typescript, xml, yaml };
for (const [name, lang] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, lang);

/** Code blocks longer than this are shown plain: highlighting them on every streamed parse costs too much. */
const MAX_HIGHLIGHT_CHARS = 60_000;

/** The registered language for a fence's info string ("ts", "go title=x", ...), or ''. */
export function codeLanguage(info: string | undefined): string {
  const word = (info ?? '').trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  if (!/^[a-z0-9_+#.-]{1,32}$/.test(word)) return '';
  return hljs.getLanguage(word) ? word : '';
}

/** A code block's body as HTML: highlighted spans for a known language, escaped text otherwise. */
export function highlightCode(code: string, language: string): string {
  if (!language || code.length > MAX_HIGHLIGHT_CHARS) return escapeHTML(code);
  try {
    return hljs.highlight(code, { language, ignoreIllegals: true }).value;
  } catch {
    return escapeHTML(code);
  }
}

const marked = new Marked({ gfm: true, breaks: false, async: false });
marked.use({
  renderer: {
    code({ text, lang }: Tokens.Code): string {
      const language = codeLanguage(lang);
      const body = highlightCode(text.replace(/\n$/, '') + '\n', language);
      return language ? `<pre><code class="hljs language-${language}">${body}</code></pre>\n` : `<pre><code>${body}</code></pre>\n`;
    },
  },
});

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

/**
 * The only class names that survive sanitising: highlight.js's (hljs, hljs-keyword, its scope
 * suffixes such as "function_" and "inherited__") and marked's language-x on code blocks. Agent HTML
 * cannot borrow the page's own classes.
 */
const ALLOWED_CLASS = /^(?:hljs(?:-[a-z_]+)*|[a-z]+_{1,2}|language-[a-z0-9_+#.-]{1,32})$/;

const FORBID_ATTR = ['style', 'target', 'srcset', 'action', 'formaction', 'xlink:href', 'ping'];

/** Only these URL schemes survive in href/src (plus relative and #fragment links). */
const ALLOWED_URI = /^(?:(?:https?|mailto):|#|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;

/**
 * Our own DOMPurify instance, configured once (setConfig) with the options and hooks above: the
 * shared default instance stays untouched, and each call skips re-parsing the configuration
 * (which costs about as much as sanitising a short message, and a stream sanitises often).
 */
let purify: ReturnType<typeof DOMPurify> | null = null;

function purifier(): ReturnType<typeof DOMPurify> {
  if (purify) return purify;
  const p = DOMPurify(window);
  p.setConfig({
    USE_PROFILES: { html: true },
    FORBID_TAGS,
    FORBID_ATTR,
    ALLOW_DATA_ATTR: false,
    ALLOW_UNKNOWN_PROTOCOLS: false,
    ALLOWED_URI_REGEXP: ALLOWED_URI,
    RETURN_TRUSTED_TYPE: false,
  });
  p.addHook('uponSanitizeAttribute', (_node, data) => {
    if (data.attrName !== 'class') return;
    const kept = data.attrValue.split(/\s+/).filter((c) => ALLOWED_CLASS.test(c));
    if (kept.length === 0) data.keepAttr = false;
    else data.attrValue = kept.join(' ');
  });
  p.addHook('afterSanitizeAttributes', (node) => {
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
  return (purify = p);
}

/** Sanitises HTML produced from untrusted input. */
export function sanitize(html: string): string {
  return purifier().sanitize(html) as string;
}

// Recently rendered texts, least recently used first: a row that scrolls back into view (the
// transcript keeps only the rows near the viewport in the DOM) renders without parsing and
// sanitising again. Bounded by the characters kept (texts and their HTML), not by the count.
const CACHE_BUDGET = 4_000_000;
const cache = new Map<string, string>();
let cached = 0;

/** The HTML renderMarkdown returned for `text` while it is still cached, without rendering. */
export function cachedMarkdown(text: string): string | undefined {
  if (!text) return '';
  return cache.get(text);
}

/** Untrusted Markdown -> safe HTML. */
export function renderMarkdown(text: string): string {
  if (!text) return '';
  const hit = cache.get(text);
  if (hit !== undefined) {
    cache.delete(text);
    cache.set(text, hit);
    return hit;
  }
  const html = render(text);
  const size = text.length + html.length;
  if (size <= CACHE_BUDGET / 8) {
    cache.set(text, html);
    cached += size;
    for (const [t, h] of cache) {
      if (cached <= CACHE_BUDGET) break;
      cache.delete(t);
      cached -= t.length + h.length;
    }
  }
  return html;
}

function render(text: string): string {
  let html: string;
  try {
    html = marked.parse(text, { async: false }) as string;
  } catch {
    return `<pre>${escapeHTML(text)}</pre>`;
  }
  return sanitize(html);
}

// Text that takes marked, highlight.js and DOMPurify through their common paths once.
const WARM_UP = [
  '# Plan\n\nReading **src/main.go** and *the handler* with `go test`; see [the docs](https://example.com).',
  '- [x] one\n- two\n\n1. three\n\n> quoted\n\n| a | b |\n|---|---|\n| 1 | 2 |',
  '```go\nfunc main() { fmt.Println("hi") }\n```\n\n```ts\nconst x: number = 1;\n```\n\n```bash\nnpm test && echo ok\n```',
].join('\n\n');

/**
 * Renders a sample once, uncached, so that the first agent message does not pay for compiling
 * the parsers (their first run takes 50-300 ms, later ones well under a millisecond). The page
 * calls it when idle after start-up.
 */
export function warmUp(): void {
  render(WARM_UP);
}

export function escapeHTML(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
