// @vitest-environment jsdom
// The sanitiser is tested under jsdom: DOMPurify does not support happy-dom (its tree walker
// skips siblings of removed nodes, so a happy-dom run would prove nothing about a real browser).
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown';

describe('renderMarkdown', () => {
  it('renders Markdown', () => {
    const html = renderMarkdown('# Title\n\nSome **bold** and `code`.\n\n- a\n- b');
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<code>code</code>');
    expect(html).toContain('<li>a</li>');
  });

  it('removes scripts, event handlers, javascript: URLs, styles, iframes and forms', () => {
    const hostile = [
      '<script>alert(1)</script>',
      '<img src=x onerror="alert(2)">',
      '[x](javascript:alert(3))',
      '<a href="JaVaScRiPt:alert(4)">y</a>',
      '<svg><script>alert(5)</script></svg>',
      '<iframe src="https://evil.example"></iframe>',
      '<form action="https://evil.example"><input name=a><button>go</button></form>',
      '<p style="position:fixed" onclick="alert(6)">styled</p>',
      '<style>body{display:none}</style>',
      '<math><mi xlink:href="javascript:alert(7)">m</mi></math>',
    ].join('\n\n');
    const html = renderMarkdown(hostile).toLowerCase();
    for (const bad of ['<script', 'onerror', 'onclick', 'javascript:', '<iframe', '<form', '<input', '<button', 'style=', '<style', '<svg', '<math']) {
      expect(html).not.toContain(bad);
    }
    expect(html).toContain('styled');
  });

  it('adds rel=noopener noreferrer to links and keeps http(s) hrefs', () => {
    const html = renderMarkdown('[site](https://example.com)');
    expect(html).toContain('href="https://example.com"');
    expect(html).toContain('rel="noopener noreferrer"');
  });

  it('drops remote image sources (the CSP would block them anyway)', () => {
    const html = renderMarkdown('![x](https://tracker.example/p.png)');
    expect(html).not.toContain('tracker.example');
  });
});
