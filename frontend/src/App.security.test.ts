// @vitest-environment jsdom
// Untrusted agent text in the real component tree. Runs under jsdom because DOMPurify does not
// support happy-dom (see src/lib/markdown.test.ts); the browser the app ships in is WebKitGTK.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import App from './App.svelte';
import { manualClock, type ManualClock } from './lib/clock';
import { app, emit, ev, resetSeq, runtime, settle } from './test/harness';
import { FOLDER } from './test/mocks';

let clock: ManualClock;

async function startSession() {
  render(App, { props: { clock } });
  await waitFor(() => expect((screen.getByTestId('cwd-input') as HTMLInputElement).value).toBe(FOLDER));
  await waitFor(() => expect((screen.getByTestId('agent-picker') as HTMLSelectElement).value).toBe('demo'));
  await fireEvent.click(screen.getByTestId('start-session'));
  await waitFor(() => expect(app.StartSession).toHaveBeenCalled());
  await settle();
  emit(ev({ kind: 'state', state: 'idle' }), ev({ kind: 'state', state: 'running' }));
}

function agentEntry(id: string, text: string) {
  return ev({ kind: 'entry', entry: { id, kind: 'agent', turn: 1, text } });
}

beforeEach(() => {
  clock = manualClock();
  resetSeq();
  runtime.EventsOn.mockClear();
  runtime.BrowserOpenURL.mockClear();
  app.StartSession.mockClear();
});

afterEach(() => cleanup());

describe('hostile agent Markdown', () => {
  it('renders with no script, event handler, javascript: URL, svg, iframe, form or style', async () => {
    await startSession();
    const hostile = [
      'Hello **world**',
      '<script>window.pwned = 1</script>',
      '<img src=x onerror="window.pwned = 2">',
      '[x](javascript:alert(1))',
      '<svg><script>window.pwned = 3</script></svg>',
      '<svg onload="window.pwned = 4"></svg>',
      '<iframe src="https://evil.example"></iframe>',
      '<form action="https://evil.example"><button>go</button></form>',
      '<a href="https://example.com" onclick="window.pwned = 5" style="position:fixed">ok link</a>',
      // Highlighted code blocks go through the same sanitiser.
      '```html\n</code></pre><script>window.pwned = 6</script><img src=x onerror="window.pwned = 7">\n```',
      '```"><img src=x onerror="window.pwned = 8">\nplain\n```',
      '```go\nfunc main() {}\n```',
    ].join('\n\n');
    emit(agentEntry('a1', hostile));
    // A thought and a streamed chunk go through the same path.
    emit(ev({ kind: 'entry', entry: { id: 't1', kind: 'thought', turn: 1, text: '<img src=y onerror=alert(9)>' } }));
    emit(ev({ kind: 'chunk', entryId: 't1', text: '<script>alert(10)</script>' }));
    clock.advance(200);
    flushSync();

    const t = screen.getByTestId('transcript');
    expect(t.querySelector('[data-entry-id="a1"] strong')?.textContent).toBe('world');
    expect(t.querySelectorAll('script')).toHaveLength(0);
    expect(t.querySelectorAll('svg:not(.icon)')).toHaveLength(0);
    expect(t.querySelectorAll('iframe, form, style, object, embed')).toHaveLength(0);
    for (const el of Array.from(t.querySelectorAll('*'))) {
      for (const attr of Array.from(el.attributes)) {
        expect(attr.name.startsWith('on'), `${el.tagName} has ${attr.name}`).toBe(false);
        expect(/^\s*javascript:/i.test(attr.value), `${el.tagName} ${attr.name}=${attr.value}`).toBe(false);
      }
    }
    expect(t.querySelector('[data-entry-id="a1"] [style]')).toBeNull();
    expect(t.querySelector('[data-entry-id="a1"] code.language-go .hljs-keyword')?.textContent).toBe('func');
    expect(t.querySelectorAll('pre img, pre script')).toHaveLength(0);
    expect(t.querySelector('[data-entry-id="a1"] code.language-html')?.textContent).toContain('<script>window.pwned = 6</script>');
    expect(t.innerHTML).not.toMatch(/javascript:/i);
    expect((window as unknown as { pwned?: number }).pwned).toBeUndefined();
  });

  it('opens links in the system browser instead of navigating', async () => {
    await startSession();
    emit(agentEntry('a2', 'See [the docs](https://example.com/docs) and [bad](javascript:alert(1)).'));
    const links = Array.from(screen.getByTestId('transcript').querySelectorAll<HTMLAnchorElement>('[data-entry-id="a2"] a'));
    const docs = links.find((a) => a.textContent === 'the docs')!;
    expect(docs.getAttribute('rel')).toBe('noopener noreferrer');
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    docs.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    expect(runtime.BrowserOpenURL).toHaveBeenCalledWith('https://example.com/docs');

    const bad = links.find((a) => a.textContent === 'bad');
    if (bad) {
      expect(bad.getAttribute('href') ?? '').not.toMatch(/javascript:/i);
      bad.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    }
    expect(runtime.BrowserOpenURL).toHaveBeenCalledTimes(1);
  });
});
