// Attachments through the whole page: the composer's picker lists the live session's files
// (ListFolderFiles), a prompt with attachments goes through PromptWith, one without through Prompt.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import App from './App.svelte';
import type { ManualClock } from './lib/clock';
import { app, emit, runtime } from './test/harness';
import { flushSync } from 'svelte';
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

  it('attaches files dropped on the window to the shown session, and says what it refused', async () => {
    await startSession(clock);
    expect(runtime.OnFileDrop).toHaveBeenCalledWith(expect.any(Function), true);
    emit(state('idle'));
    app.AttachDropped.mockImplementationOnce(async () => ({
      files: [{ path: '/home/me/spec.md', name: 'spec.md', size: 10 }],
      problems: ['cannot attach src: it is a folder: attach the files in it instead'],
    }));
    drop(['/home/me/spec.md', '/home/me/src']);
    await waitFor(() => expect(screen.getAllByTestId('attachment')).toHaveLength(1));
    expect(app.AttachDropped).toHaveBeenCalledWith(SID, ['/home/me/spec.md', '/home/me/src']);
    expect(screen.getByTestId('attach-note').textContent).toContain('it is a folder');
    await fireEvent.input(screen.getByTestId('composer-input'), { target: { value: 'read it' } });
    await fireEvent.click(screen.getByTestId('send'));
    await waitFor(() => expect(app.PromptWith).toHaveBeenCalledWith(SID, 'read it', [{ kind: 'file', path: '/home/me/spec.md' }]));
  });

  it('says a drop needs a live session when none is shown', async () => {
    render(App, { props: { clock } });
    await waitFor(() => expect(screen.getAllByTestId('agent-option')).toHaveLength(3));
    drop(['/home/me/spec.md']);
    await waitFor(() => expect(screen.getByTestId('status-note').textContent).toContain('show a live session first'));
    expect(app.AttachDropped).not.toHaveBeenCalled();
  });
});

/** Delivers a native drop's `app:files-dropped` event to the page. */
function drop(paths: string[]): void {
  const calls = runtime.EventsOn.mock.calls.filter(([name]) => name === 'app:files-dropped');
  if (calls.length === 0) throw new Error('the page did not subscribe to app:files-dropped');
  calls[calls.length - 1][1]({ paths });
  flushSync();
}
