// A terminal of ours on a tool card (issue 19): its colours render as spans (the output stays
// text), and while its command runs the person types into it and sends Ctrl-C from the card.
import { fireEvent, screen, waitFor } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { app, emit, ev } from '../../test/harness';
import { freshPage, startSession, state } from '../../test/page';

function terminalCard(terminal: Record<string, unknown>) {
  return ev({
    kind: 'entry',
    entry: { id: 't1', kind: 'tool', turn: 1, title: 'Run', toolKind: 'execute', status: 'in_progress', content: [{ type: 'terminal', terminalId: 'term-1', ...terminal }] },
  });
}

describe('terminal cards', () => {
  const page = freshPage();

  it('show colours as styled spans and markup as text', async () => {
    await startSession(page.clock);
    emit(state('running'), terminalCard({ output: '\x1b[32mok\x1b[0m <img src=x onerror=alert(1)>\n', exitStatus: { exitCode: 0 } }));
    const out = await screen.findByTestId('terminal-output');
    expect(out.querySelector('span.ansi-green-fg')?.textContent).toBe('ok');
    expect(out.textContent).toBe('ok <img src=x onerror=alert(1)>\n');
    expect(out.querySelector('img')).toBeNull();
    expect(screen.queryByTestId('terminal-input')).toBeNull(); // ended: no input
    expect(out.getAttribute('tabindex')).toBeNull();
  });

  it('send what is typed and pasted, in order, and Ctrl-C from the button', async () => {
    await startSession(page.clock);
    emit(state('running'), terminalCard({ output: 'name? ', input: true }));
    const out = await screen.findByTestId('terminal-output');
    expect(screen.getByTestId('terminal-input').textContent).toContain('Click the output to type');
    await fireEvent.focus(out);
    expect(screen.getByTestId('terminal-input').textContent).toContain('Typing goes to the command');
    for (const k of ['h', 'é', 'Enter']) await fireEvent.keyDown(out, { key: k });
    await fireEvent.keyDown(out, { key: 'w', ctrlKey: true }); // the window's, not the command's
    await fireEvent.paste(out, { clipboardData: { getData: () => 'a\nb' } });
    await waitFor(() => expect(app.TerminalInput.mock.calls.map((c) => c[2]).join('')).toBe('hé\ra\rb'));
    expect(app.TerminalInput.mock.calls.every((c) => c[0] === 's1' && c[1] === 'term-1')).toBe(true);

    await fireEvent.click(screen.getByTestId('terminal-interrupt'));
    expect(app.TerminalInterrupt).toHaveBeenCalledWith('s1', 'term-1');

    app.TerminalInput.mockImplementation(async () => {
      throw 'the command is not reading its input';
    });
    await fireEvent.keyDown(out, { key: 'x' });
    await waitFor(() => expect(document.body.textContent).toContain('the command is not reading its input'));
  });

  it('offers input before the command printed anything, and none once it ended', async () => {
    await startSession(page.clock);
    emit(state('running'), terminalCard({ input: true }));
    expect(await screen.findByTestId('terminal-interrupt')).toBeTruthy();
    emit(terminalCard({ output: 'bye\n', exitStatus: { exitCode: 0 } }));
    await waitFor(() => expect(screen.queryByTestId('terminal-input')).toBeNull());
    expect(screen.getByTestId('terminal-exit').textContent).toBe('Exit code 0');
  });
});
