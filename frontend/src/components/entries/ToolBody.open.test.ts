// A tool call's locations open in the person's editor (issue 19): each has an Open button that
// asks the backend with the shown session, the path and the line (0 without one); a refusal
// (outside the session's folders) is shown in the error banner.
import { fireEvent, screen, waitFor } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { app, emit, ev } from '../../test/harness';
import { freshPage, startSession, state } from '../../test/page';

describe('tool call locations', () => {
  const page = freshPage();

  it('open in the editor at their line, and a refusal is reported', async () => {
    await startSession(page.clock);
    emit(
      state('running'),
      ev({
        kind: 'entry',
        entry: { id: 't1', kind: 'tool', turn: 1, title: 'Edit', toolKind: 'edit', locations: [{ path: '/p/main.go', line: 12 }, { path: 'README.md' }] },
      }),
    );
    const buttons = await screen.findAllByTestId('location-open');
    expect(buttons).toHaveLength(2);
    await fireEvent.click(buttons[0]);
    await fireEvent.click(buttons[1]);
    expect(app.OpenInEditor).toHaveBeenNthCalledWith(1, 's1', '/p/main.go', 12);
    expect(app.OpenInEditor).toHaveBeenNthCalledWith(2, 's1', 'README.md', 0);

    app.OpenInEditor.mockImplementation(async () => {
      throw 'could not open it in an editor: /etc/passwd is outside the session\'s folders';
    });
    await fireEvent.click(buttons[0]);
    await waitFor(() => expect(document.body.textContent).toContain("outside the session's folders"));
  });
});
