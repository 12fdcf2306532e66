// Attachments through the whole page: the composer's picker lists the live session's files
// (ListFolderFiles), a prompt with attachments goes through PromptWith, one without through Prompt.
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { ManualClock } from './lib/clock';
import { app, emit } from './test/harness';
import { SID } from './test/mocks';
import { info, resetPage, startSession, state } from './test/page';

let clock: ManualClock;

beforeEach(() => {
  clock = resetPage();
  app.ListFolderFiles.mockImplementation(async () => [{ path: 'docs/notes.md', name: 'notes.md', size: 1200 }]);
});

afterEach(() => cleanup());

describe('attachments', () => {
  it('attaches a file of the live session and sends it with PromptWith', async () => {
    await startSession(clock);
    emit(state('idle'), info({ promptCapabilities: { image: true, embeddedContext: true } }));
    await fireEvent.click(screen.getByTestId('attach'));
    await waitFor(() => expect(screen.getAllByTestId('attach-option')).toHaveLength(1));
    expect(app.ListFolderFiles).toHaveBeenCalledWith(SID, '');
    await fireEvent.click(screen.getByTestId('attach-option'));
    const input = screen.getByTestId('composer-input');
    await fireEvent.input(input, { target: { value: 'summarise' } });
    await fireEvent.click(screen.getByTestId('send'));
    await waitFor(() => expect(app.PromptWith).toHaveBeenCalledWith(SID, 'summarise', [{ kind: 'file', path: 'docs/notes.md' }]));
    expect(app.Prompt).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.queryAllByTestId('attachment')).toHaveLength(0));

    await fireEvent.input(input, { target: { value: 'plain' } });
    await fireEvent.click(screen.getByTestId('send'));
    await waitFor(() => expect(app.Prompt).toHaveBeenCalledWith(SID, 'plain'));
  });

  it('shows why an attachment was refused and keeps it for another try', async () => {
    await startSession(clock);
    emit(state('idle'));
    app.PromptWith.mockImplementationOnce(async () => {
      throw 'cannot attach notes.md: /x/notes.md does not exist (was it moved or deleted?): pick it again';
    });
    await fireEvent.click(screen.getByTestId('attach'));
    await waitFor(() => expect(screen.getAllByTestId('attach-option')).toHaveLength(1));
    await fireEvent.click(screen.getByTestId('attach-option'));
    await fireEvent.click(screen.getByTestId('send'));
    await waitFor(() => expect(screen.getByTestId('error-banner').textContent).toContain('cannot attach notes.md'));
    expect(screen.getAllByTestId('attachment')).toHaveLength(1);
  });
});
