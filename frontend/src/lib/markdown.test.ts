// @vitest-environment jsdom
// The sanitiser is tested under jsdom: DOMPurify does not support happy-dom (its tree walker
// skips siblings of removed nodes, so a happy-dom run would prove nothing about a real browser).
import { describe, expect, it } from 'vitest';
import { codeLanguage, renderMarkdown } from './markdown';

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

describe('code highlighting', () => {
  it('highlights fenced code in a registered language with class-only spans', () => {
    const html = renderMarkdown('```go\nfunc main() { return "x" }\n```');
    expect(html).toContain('<pre><code class="hljs language-go">');
    expect(html).toContain('<span class="hljs-keyword">func</span>');
    expect(html).toContain('<span class="hljs-string">"x"</span>');
    expect(html).not.toContain('style=');
  });

  it('resolves aliases and leaves unknown or missing languages plain', () => {
    expect(codeLanguage('ts')).toBe('ts');
    expect(codeLanguage('TypeScript title="a.ts"')).toBe('typescript');
    for (const lang of ['sh', 'zsh', 'console', 'html', 'svg', 'md', 'yml', 'py', 'rs', 'golang', 'patch', 'js', 'json', 'sql', 'css', 'xml', 'diff', 'bash', 'rust', 'python']) {
      expect(codeLanguage(lang), lang).not.toBe('');
    }
    expect(codeLanguage('cobol')).toBe('');
    expect(codeLanguage('')).toBe('');
    expect(renderMarkdown('```cobol\nDISPLAY "<b>".\n```')).toBe('<pre><code>DISPLAY "&lt;b&gt;".\n</code></pre>\n');
    expect(renderMarkdown('```\n<i>x</i>\n```')).toBe('<pre><code>&lt;i&gt;x&lt;/i&gt;\n</code></pre>\n');
  });

  it('escapes hostile code and never trusts the fence info string', () => {
    const html = renderMarkdown(
      [
        '```html',
        '</code></pre><script>alert(1)</script><img src=x onerror=alert(2)>',
        '```',
        '',
        '```"><img/src/onerror=alert(3)>',
        'x',
        '```',
        '',
        '```js onmouseover=alert(4)',
        'let a = 1',
        '```',
      ].join('\n'),
    );
    const lower = html.toLowerCase();
    for (const bad of ['<script', '<img', 'onmouseover=', 'javascript:']) expect(lower).not.toContain(bad);
    const div = document.createElement('div');
    div.innerHTML = html;
    expect(div.querySelectorAll('script, img, pre pre')).toHaveLength(0);
    for (const el of Array.from(div.querySelectorAll('*'))) {
      expect(Array.from(el.attributes).map((a) => a.name)).toEqual(el.hasAttribute('class') ? ['class'] : []);
    }
    expect(div.querySelector('code')?.textContent).toBe('</code></pre><script>alert(1)</script><img src=x onerror=alert(2)>\n');
    expect(html).toContain('<code class="hljs language-js">');
  });

  it('keeps only highlight.js and language classes from agent HTML', () => {
    const html = renderMarkdown('<p class="sr hljs-keyword svelte-abc123 language-go evil">x</p>\n\n<span class="app">y</span>');
    expect(html).toContain('<p class="hljs-keyword language-go">x</p>');
    expect(html).toContain('<span>y</span>');
  });

  it('leaves a huge code block unhighlighted', () => {
    const big = 'let x = 1;\n'.repeat(7_000);
    const html = renderMarkdown('```js\n' + big + '```');
    expect(html).not.toContain('hljs-keyword');
    expect(html).toContain('let x = 1;');
  });

  it('renders a text it has seen before the same way (from its cache)', () => {
    const text = 'a **cached** [link](https://example.com) <img src=x onerror=alert(1)>';
    const first = renderMarkdown(text);
    expect(renderMarkdown(text)).toBe(first);
    expect(first).not.toContain('onerror');
    for (let i = 0; i < 12; i++) renderMarkdown(`${i}`.padEnd(200_000, 'x')); // past the cache's budget
    expect(renderMarkdown(text)).toBe(first);
  });
});
