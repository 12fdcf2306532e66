// The file picker's "Choose a file elsewhere…" (issue 19): it asks for a file outside the
// session folder and attaches the one chosen; a cancelled dialog attaches nothing; without a
// chooser the picker does not offer it.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FolderFile } from '../lib/protocol';
import Composer from './Composer.svelte';

function setup(chooseFile?: () => Promise<FolderFile | null>) {
  render(Composer, {
    props: {
      active: true,
      sessionState: 'idle',
      promptCapabilities: { embeddedContext: true },
      listFiles: vi.fn(async () => []),
      chooseFile,
      onSend: vi.fn(async () => true),
      onStop: vi.fn(),
      onHardStop: vi.fn(),
    },
  });
}

afterEach(() => cleanup());

describe('a file from elsewhere', () => {
  it('is attached once chosen, and nothing is when the dialog is cancelled', async () => {
    const chosen: FolderFile = { path: '/home/ana/specs/api.md', name: 'api.md', size: 2048 };
    const chooseFile = vi.fn<() => Promise<FolderFile | null>>().mockResolvedValueOnce(null).mockResolvedValueOnce(chosen);
    setup(chooseFile);
    for (let i = 0; i < 2; i++) {
      await fireEvent.click(screen.getByTestId('attach'));
      await fireEvent.click(await screen.findByTestId('attach-elsewhere'));
      await waitFor(() => expect(chooseFile).toHaveBeenCalledTimes(i + 1));
      expect(screen.queryByTestId('file-picker')).toBeNull();
    }
    await waitFor(() => expect(screen.queryAllByTestId('attachment')).toHaveLength(1));
    expect(screen.getByTestId('attachment').dataset.name).toBe('api.md');
  });

  it('is not offered without a chooser', async () => {
    setup(undefined);
    await fireEvent.click(screen.getByTestId('attach'));
    await screen.findByTestId('file-picker');
    expect(screen.queryByTestId('attach-elsewhere')).toBeNull();
  });
});
