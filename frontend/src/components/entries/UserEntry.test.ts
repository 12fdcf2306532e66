import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { Entry } from '../../lib/protocol';
import UserEntry from './UserEntry.svelte';

const THUMB = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

afterEach(() => cleanup());

describe('user entry attachments', () => {
  it('shows each attachment: files as chips, images as thumbnails', () => {
    const entry: Entry = {
      id: 'u1',
      kind: 'user',
      turn: 1,
      text: 'what is this?',
      attachments: [
        { kind: 'file', name: 'notes.md', path: '/p/notes.md', size: 1200, sent: 'embedded' },
        { kind: 'image', name: 'screenshot.png', size: 5000, sent: 'image', width: 640, height: 480, thumbnail: THUMB },
      ],
    };
    render(UserEntry, { props: { entry } });
    const chips = screen.getAllByTestId('attachment');
    expect(chips.map((c) => [c.dataset.kind, c.dataset.name])).toEqual([
      ['file', 'notes.md'],
      ['image', 'screenshot.png'],
    ]);
    expect(chips[0].textContent).toContain('embedded · 1.2 kB');
    expect(chips[0].getAttribute('title')).toBe('/p/notes.md');
    expect(chips[1].querySelector('img')?.getAttribute('src')).toBe(THUMB);
    expect(chips[1].textContent).toContain('640×480');
    expect(screen.queryByTestId('attachment-remove')).toBeNull();
  });

  it('never renders a thumbnail that is not a base64 image data: URL', () => {
    const entry: Entry = {
      id: 'u1',
      kind: 'user',
      turn: 1,
      text: '',
      attachments: [{ kind: 'image', name: 'x.png', size: 1, sent: 'image', thumbnail: 'https://evil.example/x.png' }],
    };
    render(UserEntry, { props: { entry } });
    expect(screen.getByTestId('attachment').querySelector('img')).toBeNull();
    expect(document.querySelector('.bubble')).toBeNull(); // no empty bubble for a prompt of only attachments
  });
});

describe('steered user entry', () => {
  it('tags a prompt steered into the running turn, and only that one', () => {
    render(UserEntry, { props: { entry: { id: 'u2', kind: 'user', turn: 1, text: 'go left', steered: true } } });
    expect(screen.getByTestId('steered-tag').textContent).toBe('steered');
    expect(screen.getByTestId('entry').dataset.steered).toBe('true');
    cleanup();
    render(UserEntry, { props: { entry: { id: 'u1', kind: 'user', turn: 1, text: 'first' } } });
    expect(screen.queryByTestId('steered-tag')).toBeNull();
  });
});
