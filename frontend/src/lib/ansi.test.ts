// Terminal output as HTML (lib/ansi.ts): colours become spans, everything else stays text.
import { describe, expect, it } from 'vitest';
import { terminalHTML } from './ansi';

function dom(html: string): HTMLElement {
  const el = document.createElement('pre');
  el.innerHTML = html;
  return el;
}

describe('terminalHTML', () => {
  it('turns the 16 colours into classes and the others into inline styles', () => {
    const el = dom(terminalHTML('\x1b[31mred\x1b[0m plain \x1b[1;92mbold green\x1b[0m \x1b[38;5;208morange\x1b[0m\n'));
    expect(el.textContent).toBe('red plain bold green orange\n');
    expect(el.querySelector('span.ansi-red-fg')?.textContent).toBe('red');
    const bold = el.querySelector('span.ansi-bright-green-fg') as HTMLElement;
    expect(bold.textContent).toBe('bold green');
    expect(bold.style.fontWeight).toBe('bold');
    expect([...el.querySelectorAll('span')].find((s) => s.textContent === 'orange')?.style.color).toMatch(/^rgb\(/);
  });

  it('keeps markup in the output as text, with or without colours', () => {
    for (const out of ['<img src=x onerror=alert(1)>&amp;"\'', '\x1b[32m<img src=x onerror=alert(1)>\x1b[0m<script>alert(2)</script>']) {
      const el = dom(terminalHTML(out));
      expect(el.querySelector('img, script, a')).toBeNull();
      expect(el.textContent).toBe(out.replace(/\x1b\[[0-9;]*m/g, ''));
    }
  });

  it('makes no link of a hyperlink sequence that reached it', () => {
    const el = dom(terminalHTML('\x1b]8;;https://example.com\x1b\\site\x1b]8;;\x1b\\ \x1b[31mx\x1b[0m'));
    expect(el.querySelector('a')).toBeNull();
    expect(el.textContent).not.toContain('example.com');
    expect(el.querySelector('span.ansi-red-fg')?.textContent).toBe('x');
  });
});
