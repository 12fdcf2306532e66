// The composer's attachments: the file picker (attach button and '@'), chips, pasted images and
// sending them, with the component rendered alone and its callbacks mocked.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Attachment, FolderFile, PromptCapabilities } from '../lib/protocol';
import Composer from './Composer.svelte';

const FILES: FolderFile[] = [
  { path: 'notes.md', name: 'notes.md', size: 1200 },
  { path: 'src/main.go', name: 'main.go', size: 3400 },
  { path: 'src/notes/todo.txt', name: 'todo.txt', size: 12 },
];

// A 1×1 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

function pngFile(name = 'screenshot.png', size?: number): File {
  const bytes = Uint8Array.from(atob(PNG), (c) => c.charCodeAt(0));
  const file = new File([bytes], name, { type: 'image/png' });
  if (size !== undefined) Object.defineProperty(file, 'size', { value: size });
  return file;
}

function setup({ caps = { image: true, embeddedContext: true } as PromptCapabilities | null, state = 'idle', sendResult = true } = {}) {
  const listFiles = vi.fn(async (query: string) => FILES.filter((f) => f.path.includes(query)));
  const onSend = vi.fn(async (_text: string, _attachments: Attachment[]) => sendResult);
  const onStop = vi.fn();
  render(Composer, {
    props: {
      active: true,
      sessionState: state as 'idle',
      promptCapabilities: caps,
      listFiles,
      onSend,
      onStop,
      onHardStop: vi.fn(),
    },
  });
  const input = screen.getByTestId('composer-input') as HTMLTextAreaElement;
  return { listFiles, onSend, onStop, input };
}

const chips = () => screen.queryAllByTestId('attachment');
const options = () => screen.queryAllByTestId('attach-option');

async function type(input: HTMLTextAreaElement, value: string) {
  await fireEvent.input(input, { target: { value } });
  input.setSelectionRange(value.length, value.length);
  await fireEvent.keyUp(input, { key: value.at(-1) ?? '' });
}

/** A paste event carrying files (and text, when given). */
async function paste(input: HTMLTextAreaElement, files: File[], text = '') {
  const clipboardData = {
    files,
    items: files.map((f) => ({ kind: 'file', type: f.type, getAsFile: () => f })),
    types: text ? ['text/plain', 'Files'] : ['Files'],
    getData: (t: string) => (t === 'text/plain' ? text : ''),
  };
  return fireEvent.paste(input, { clipboardData });
}

afterEach(() => cleanup());

describe('attach button and file picker', () => {
  it('opens a searchable list of the session files and attaches the chosen one with the keyboard', async () => {
    const { listFiles, input } = setup();
    await fireEvent.click(screen.getByTestId('attach'));
    const search = screen.getByTestId('attach-search') as HTMLInputElement;
    await waitFor(() => expect(document.activeElement).toBe(search));
    await waitFor(() => expect(options()).toHaveLength(3));
    expect(listFiles).toHaveBeenLastCalledWith('');
    expect(options().map((o) => o.dataset.path)).toEqual(['notes.md', 'src/main.go', 'src/notes/todo.txt']);

    await fireEvent.input(search, { target: { value: 'src' } });
    await waitFor(() => expect(options()).toHaveLength(2));
    expect(listFiles).toHaveBeenLastCalledWith('src');
    await fireEvent.keyDown(search, { key: 'ArrowDown' });
    expect(options()[1].getAttribute('aria-selected')).toBe('true');
    await fireEvent.keyDown(search, { key: 'Enter' });

    expect(screen.queryByTestId('file-picker')).toBeNull();
    expect(chips().map((c) => [c.dataset.kind, c.dataset.name])).toEqual([['file', 'todo.txt']]);
    expect(document.activeElement).toBe(input);
  });

  it('Esc closes the picker without stopping a running turn; a click attaches', async () => {
    const { onStop } = setup({ state: 'running' });
    await fireEvent.click(screen.getByTestId('attach'));
    const search = screen.getByTestId('attach-search');
    await waitFor(() => expect(options()).toHaveLength(3));
    await fireEvent.keyDown(search, { key: 'Escape' });
    expect(screen.queryByTestId('file-picker')).toBeNull();
    expect(onStop).not.toHaveBeenCalled();

    await fireEvent.click(screen.getByTestId('attach'));
    await waitFor(() => expect(options()).toHaveLength(3));
    await fireEvent.click(options()[0]);
    expect(chips().map((c) => c.dataset.name)).toEqual(['notes.md']);
  });

  it('says why the list is empty or failed', async () => {
    const { listFiles } = setup();
    listFiles.mockImplementationOnce(async () => {
      throw new Error('no live session s1');
    });
    await fireEvent.click(screen.getByTestId('attach'));
    await waitFor(() => expect(screen.getByTestId('attach-empty').textContent).toContain('no live session s1'));
    await fireEvent.input(screen.getByTestId('attach-search'), { target: { value: 'zzz' } });
    await waitFor(() => expect(screen.getByTestId('attach-empty').textContent).toContain('No file matches “zzz”'));
  });

  it("'@' at the start of a word opens the picker filtered by what follows; Enter replaces the mention with a chip", async () => {
    const { listFiles, input } = setup();
    await type(input, 'look at me@x');
    expect(screen.queryByTestId('file-picker')).toBeNull(); // not at a word start
    await type(input, 'look at @notes');
    await waitFor(() => expect(options()).toHaveLength(2));
    expect(listFiles).toHaveBeenLastCalledWith('notes');
    expect(screen.getByTestId('file-picker').dataset.mode).toBe('mention');
    await fireEvent.keyDown(input, { key: 'Enter' });
    expect(input.value).toBe('look at ');
    expect(chips().map((c) => c.dataset.name)).toEqual(['notes.md']);
    expect(screen.queryByTestId('file-picker')).toBeNull();
  });

  it("Esc dismisses an '@' mention, which then stays closed while typed on", async () => {
    const { onSend, input } = setup();
    await type(input, '@zz');
    await waitFor(() => expect(screen.getByTestId('attach-empty')).toBeTruthy());
    await fireEvent.keyDown(input, { key: 'Escape' });
    expect(screen.queryByTestId('file-picker')).toBeNull();
    await type(input, '@zzz');
    expect(screen.queryByTestId('file-picker')).toBeNull();
    await fireEvent.keyDown(input, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith('@zzz', []);
  });
});

describe('attachment chips and sending', () => {
  it('sends the attachments with the text, and clears them once sent', async () => {
    const { onSend, input } = setup();
    await fireEvent.click(screen.getByTestId('attach'));
    await waitFor(() => expect(options()).toHaveLength(3));
    await fireEvent.click(options()[0]);
    await fireEvent.click(screen.getByTestId('attach'));
    await waitFor(() => expect(options()).toHaveLength(3));
    await fireEvent.click(options()[1]);
    await fireEvent.click(screen.getByTestId('attach'));
    await waitFor(() => expect(options()).toHaveLength(3));
    await fireEvent.click(options()[0]); // already attached: not twice
    expect(chips().map((c) => c.dataset.name)).toEqual(['notes.md', 'main.go']);

    // Only attachments, no text: can be sent.
    expect((screen.getByTestId('send') as HTMLButtonElement).disabled).toBe(false);
    await type(input, 'explain');
    await fireEvent.click(screen.getByTestId('send'));
    expect(onSend).toHaveBeenCalledWith('explain', [
      { kind: 'file', path: 'notes.md' },
      { kind: 'file', path: 'src/main.go' },
    ]);
    await waitFor(() => expect(chips()).toHaveLength(0));
  });

  it('keeps the attachments when sending fails, and removes one with its button', async () => {
    const { onSend } = setup({ sendResult: false });
    await fireEvent.click(screen.getByTestId('attach'));
    await waitFor(() => expect(options()).toHaveLength(3));
    await fireEvent.click(options()[0]);
    await fireEvent.click(screen.getByTestId('send'));
    expect(onSend).toHaveBeenCalledTimes(1);
    await waitFor(() => expect((screen.getByTestId('send') as HTMLButtonElement).disabled).toBe(false));
    expect(chips()).toHaveLength(1);
    const remove = screen.getByTestId('attachment-remove');
    expect(remove.getAttribute('aria-label')).toBe('Remove notes.md');
    await fireEvent.click(remove);
    expect(chips()).toHaveLength(0);
    expect((screen.getByTestId('send') as HTMLButtonElement).disabled).toBe(true);
  });

  it('a pasted image becomes an image chip with its thumbnail and is sent as base64', async () => {
    const { onSend, input } = setup();
    await paste(input, [pngFile()]);
    await waitFor(() => expect(chips()).toHaveLength(1));
    const chip = chips()[0];
    expect(chip.dataset.kind).toBe('image');
    expect(chip.dataset.name).toBe('screenshot.png');
    expect(chip.querySelector('img')?.getAttribute('src')).toBe(`data:image/png;base64,${PNG}`);
    await fireEvent.click(screen.getByTestId('send'));
    expect(onSend).toHaveBeenCalledWith('', [{ kind: 'image', name: 'screenshot.png', mimeType: 'image/png', data: PNG }]);
  });

  it('an agent that does not accept images gets no image chip, and the person is told why', async () => {
    const { input } = setup({ caps: { embeddedContext: true } });
    await paste(input, [pngFile()]);
    expect(chips()).toHaveLength(0);
    expect(screen.getByTestId('attach-note').textContent).toContain('This agent does not accept images');
    await fireEvent.click(screen.getByLabelText('Dismiss'));
    expect(screen.queryByTestId('attach-note')).toBeNull();
  });

  it('refuses an image over 10 MiB, saying so', async () => {
    const { input } = setup();
    await paste(input, [pngFile('huge.png', 11 * 1024 * 1024)]);
    expect(chips()).toHaveLength(0);
    expect(screen.getByTestId('attach-note').textContent).toContain('images up to 10 MiB can be attached');
  });

  it('a paste without images is left to the text box', async () => {
    const { input } = setup();
    const event = await paste(input, [], 'plain text');
    expect(event).toBe(true); // not prevented
    expect(chips()).toHaveLength(0);
    expect(screen.queryByTestId('attach-note')).toBeNull();
  });
});
