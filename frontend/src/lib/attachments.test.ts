import { describe, expect, it } from 'vitest';
import { describeSent, formatBytes, mentionAt, removeMention, safeThumbnail, toAttachment } from './attachments';

describe('attachment helpers', () => {
  it('formatBytes writes decimal units like the Go side', () => {
    expect(formatBytes(980)).toBe('980 B');
    expect(formatBytes(1200)).toBe('1.2 kB');
    expect(formatBytes(3_400_000)).toBe('3.4 MB');
  });

  it('describeSent says how a file went and an image’s size', () => {
    expect(describeSent({ kind: 'file', name: 'a', size: 1200, sent: 'embedded' })).toBe('embedded · 1.2 kB');
    expect(describeSent({ kind: 'file', name: 'a', size: 50, sent: 'link' })).toBe('link · 50 B');
    expect(describeSent({ kind: 'image', name: 'a', size: 50, sent: 'image', width: 640, height: 480 })).toBe('640×480');
    expect(describeSent({ kind: 'image', name: 'a', size: 50, sent: 'image' })).toBe('50 B');
  });

  it('safeThumbnail accepts only base64 image data: URLs', () => {
    expect(safeThumbnail('data:image/png;base64,iVBORw0KGgo=')).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(safeThumbnail('data:image/svg+xml;base64,PHN2Zz4=')).toBeNull();
    expect(safeThumbnail('https://example.com/x.png')).toBeNull();
    expect(safeThumbnail('data:image/png;base64,abc" onerror="x')).toBeNull();
    expect(safeThumbnail(null)).toBeNull();
  });

  it('mentionAt finds an @word that starts a word and ends at the caret', () => {
    expect(mentionAt('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionAt('see @src/ma', 11)).toEqual({ start: 4, query: 'src/ma' });
    expect(mentionAt('see @src/ma later', 11)).toEqual({ start: 4, query: 'src/ma' });
    expect(mentionAt('see @src later', 14)).toBeNull(); // the caret is past the word
    expect(mentionAt('me@example.com', 14)).toBeNull();
    expect(mentionAt('line\n@x', 7)).toEqual({ start: 5, query: 'x' });
  });

  it('removeMention cuts the mention and puts the caret where it was', () => {
    const text = 'see @no and';
    expect(removeMention(text, { start: 4, query: 'no' }, 7)).toEqual({ text: 'see  and', caret: 4 });
  });

  it('toAttachment sends files by path and images as data', () => {
    expect(toAttachment({ key: 'f', kind: 'file', name: 'a.md', path: 'docs/a.md', size: 1 })).toEqual({ kind: 'file', path: 'docs/a.md' });
    expect(toAttachment({ key: 'i', kind: 'image', name: 'p.png', size: 1, mimeType: 'image/png', data: 'AAAA', dataUrl: 'x' })).toEqual({
      kind: 'image',
      name: 'p.png',
      mimeType: 'image/png',
      data: 'AAAA',
    });
  });
});
