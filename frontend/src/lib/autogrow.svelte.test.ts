import { cleanup, render } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { createAttachmentKey } from 'svelte/attachments';
import { afterEach, describe, expect, it } from 'vitest';
import AttachHost from '../test/AttachHost.svelte';
import { autogrow } from './autogrow';

afterEach(() => cleanup());

describe('autogrow', () => {
  it('fits the text area to its content, up to the limit, whenever the value changes', () => {
    const box = $state({ text: '' });
    let content = 40; // the content's height (the test DOM has no layout)
    const { container } = render(AttachHost, {
      props: { tag: 'textarea', attrs: { [createAttachmentKey()]: autogrow(() => box.text, 100) } },
    });
    const ta = container.querySelector('textarea')!;
    Object.defineProperty(ta, 'scrollHeight', { get: () => (ta.style.height === 'auto' ? content : 0), configurable: true });
    expect(ta.style.height).toBe('0px'); // attached before the stub: measured without layout

    content = 60;
    box.text = 'two\nlines';
    flushSync();
    expect(ta.style.height).toBe('60px');

    content = 400;
    box.text = 'many\nlines';
    flushSync();
    expect(ta.style.height).toBe('100px');

    content = 40;
    box.text = '';
    flushSync();
    expect(ta.style.height).toBe('40px');
  });
});
