// The history actions, the protocol inspector and Ctrl+K, driven through the whole page with
// mocked bindings (see App.test.ts for the basics, ./test/page.ts for the set-up).
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { ManualClock } from './lib/clock';
import type { HistoryItem, JournalLine } from './lib/protocol';
import { app, emit, ev, runtime, settle } from './test/harness';
import { SID, emptySnapshot } from './test/mocks';
import { historyItem, resetPage, startSession as start, state } from './test/page';

let clock: ManualClock;
const startSession = () => start(clock);

beforeEach(() => {
  clock = resetPage();
});

afterEach(() => cleanup());

describe('history actions', () => {
  let items: HistoryItem[];

  beforeEach(() => {
    items = [historyItem('h1', 'Fix the build'), { ...historyItem(SID, 'Live one'), outcome: 'running' }];
    app.ListHistory.mockImplementation(async () => items);
    app.RenameHistory.mockImplementation(async (id: string, title: string) => {
      items = items.map((it) => (it.id === id ? { ...it, title } : it));
    });
    app.DeleteHistory.mockImplementation(async (id: string) => {
      items = items.filter((it) => it.id !== id);
    });
  });

  async function ready() {
    await startSession();
    emit(state('idle'));
    await waitFor(() => expect(screen.getAllByTestId('history-item')).toHaveLength(2));
  }

  function action(testId: string, id: string): HTMLElement {
    return screen.getAllByTestId(testId).find((el) => el.dataset.sessionId === id)!;
  }

  it('renames inline: Enter saves, Esc cancels', async () => {
    await ready();
    await fireEvent.click(action('history-rename', 'h1'));
    await settle();
    const input = screen.getByTestId('history-rename-input') as HTMLInputElement;
    expect(input.value).toBe('Fix the build');
    expect(document.activeElement).toBe(input);
    await fireEvent.input(input, { target: { value: 'Build fixed' } });
    await fireEvent.keyDown(input, { key: 'Enter' });
    await settle();
    expect(app.RenameHistory).toHaveBeenCalledWith('h1', 'Build fixed');
    expect(screen.queryByTestId('history-rename-input')).toBeNull();
    expect(screen.getAllByTestId('history-item')[0].textContent).toContain('Build fixed');

    await fireEvent.click(action('history-rename', 'h1'));
    await settle();
    const again = screen.getByTestId('history-rename-input') as HTMLInputElement;
    await fireEvent.input(again, { target: { value: 'Never mind' } });
    await fireEvent.keyDown(again, { key: 'Escape' });
    await settle();
    expect(screen.queryByTestId('history-rename-input')).toBeNull();
    expect(app.RenameHistory).toHaveBeenCalledTimes(1);
    expect(screen.getAllByTestId('history-item')[0].textContent).toContain('Build fixed');

    // Clicking away saves too; an unchanged or empty title calls nothing.
    await fireEvent.click(action('history-rename', 'h1'));
    await settle();
    const third = screen.getByTestId('history-rename-input') as HTMLInputElement;
    await fireEvent.input(third, { target: { value: 'Build fixed twice' } });
    await fireEvent.blur(third);
    await settle();
    expect(app.RenameHistory).toHaveBeenLastCalledWith('h1', 'Build fixed twice');
    await fireEvent.click(action('history-rename', 'h1'));
    await settle();
    const fourth = screen.getByTestId('history-rename-input') as HTMLInputElement;
    await fireEvent.input(fourth, { target: { value: '  ' } });
    await fireEvent.keyDown(fourth, { key: 'Enter' });
    await settle();
    expect(app.RenameHistory).toHaveBeenCalledTimes(2);
  });

  it('deletes after a confirm step, and closes the saved copy that was shown', async () => {
    app.OpenHistory.mockImplementation(async (id: string) => emptySnapshot(id, { state: '', title: 'Fix the build' }));
    await ready();
    await fireEvent.click(screen.getAllByTestId('history-item')[0]);
    await settle();
    expect(screen.getByTestId('session-header').textContent).toContain('Saved session');

    await fireEvent.click(action('history-delete', 'h1'));
    await settle();
    expect(app.DeleteHistory).not.toHaveBeenCalled();
    await fireEvent.click(screen.getByTestId('history-delete-cancel'));
    expect(screen.queryByTestId('history-delete-confirm')).toBeNull();

    await fireEvent.click(action('history-delete', 'h1'));
    await settle();
    await fireEvent.click(screen.getByTestId('history-delete-confirm'));
    await settle();
    expect(app.DeleteHistory).toHaveBeenCalledWith('h1');
    expect(screen.getAllByTestId('history-item').map((i) => i.dataset.sessionId)).toEqual([SID]);
    expect(screen.getByTestId('session-header').textContent).not.toContain('Saved session');
    expect(screen.getByTestId('composer-input')).toBeTruthy();
  });

  it('deleting the live session saved copy keeps the live session', async () => {
    await ready();
    await fireEvent.click(action('history-delete', SID));
    await settle();
    expect(screen.getByText(/The live session keeps running/)).toBeTruthy();
    await fireEvent.click(screen.getByTestId('history-delete-confirm'));
    await settle();
    expect(app.DeleteHistory).toHaveBeenCalledWith(SID);
    expect(app.Stop).not.toHaveBeenCalled();
    expect(screen.getAllByTestId('history-item').map((i) => i.dataset.sessionId)).toEqual(['h1']);
    expect(screen.getByTestId('session-state').textContent).toBe('idle');
    emit(ev({ kind: 'entry', entry: { id: 'a', kind: 'agent', turn: 1, text: 'still here' } }));
    expect(screen.getByTestId('transcript').textContent).toContain('still here');
  });

  it('Esc closes the delete confirmation', async () => {
    await ready();
    await fireEvent.click(action('history-delete', 'h1'));
    await settle();
    await fireEvent.keyDown(screen.getByTestId('history-delete-confirm'), { key: 'Escape' });
    expect(screen.queryByTestId('history-delete-confirm')).toBeNull();
    expect(app.DeleteHistory).not.toHaveBeenCalled();
  });

  it('copies the Markdown export to the clipboard and says so for a moment', async () => {
    app.ExportHistory.mockImplementation(async (id: string) => `# Fix the build (${id})\n`);
    await ready();
    await fireEvent.click(action('history-export', 'h1'));
    await settle();
    expect(app.ExportHistory).toHaveBeenCalledWith('h1', 'md');
    expect(runtime.ClipboardSetText).toHaveBeenCalledWith('# Fix the build (h1)\n');
    expect(screen.getByTestId('history-copied').textContent).toContain('Copied');
    clock.advance(2_000);
    flushSync();
    expect(screen.queryByTestId('history-copied')).toBeNull();
  });

  it('reports a clipboard that refused', async () => {
    runtime.ClipboardSetText.mockImplementation(async () => false);
    await ready();
    await fireEvent.click(action('history-export', 'h1'));
    await settle();
    expect(screen.getByTestId('error-banner').textContent).toContain('Could not copy');
    expect(screen.queryByTestId('history-copied')).toBeNull();
  });
});

describe('protocol inspector', () => {
  const at = '2026-03-10T12:00:00.000Z';
  const journal: JournalLine[] = [
    { direction: 'out', method: 'initialize', json: '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}', at },
    { direction: 'in', json: '{"jsonrpc":"2.0","id":0,"result":{"agentInfo":{"name":"<img src=x onerror=alert(1)>"}}}', at },
    { direction: 'out', method: 'session/prompt', json: '{"jsonrpc":"2.0","id":2,"method":"session/prompt"}', at },
    { direction: 'in', json: '{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"boom"}}', at },
  ];

  it('toggles from the header and lists the messages; a click shows the JSON as text', async () => {
    app.Messages.mockImplementation(async () => journal);
    await startSession();
    emit(state('idle'));
    expect(screen.queryByTestId('inspector')).toBeNull();
    await fireEvent.click(screen.getByTestId('inspector-toggle'));
    await settle();
    expect(app.Messages).toHaveBeenCalledWith(SID);
    const panel = screen.getByTestId('inspector');
    const rows = within(panel).getAllByTestId('inspector-row');
    expect(rows.map((r) => `${r.dataset.direction}:${r.dataset.method}`)).toEqual([
      'out:initialize',
      'in:response',
      'out:session/prompt',
      'in:error',
    ]);
    expect(rows[1].textContent).toContain('initialize'); // what it answers
    expect(within(panel).queryAllByTestId('inspector-json')).toHaveLength(0);

    await fireEvent.click(rows[1].querySelector('button')!);
    const pre = within(panel).getByTestId('inspector-json');
    expect(pre.textContent).toContain('"name": "<img src=x onerror=alert(1)>"');
    expect(panel.querySelector('img')).toBeNull();
    expect(rows[1].querySelector('button')!.getAttribute('aria-expanded')).toBe('true');

    await fireEvent.click(screen.getByTestId('inspector-toggle'));
    expect(screen.queryByTestId('inspector')).toBeNull();
  });

  it('refreshes on demand and after each turn end while open', async () => {
    await startSession();
    emit(state('idle'));
    emit(ev({ kind: 'turn_end', turn: 1, stopReason: 'end_turn' }));
    expect(app.Messages).not.toHaveBeenCalled();
    await fireEvent.click(screen.getByTestId('inspector-toggle'));
    await settle();
    expect(app.Messages).toHaveBeenCalledTimes(1);
    await fireEvent.click(screen.getByTestId('inspector-refresh'));
    expect(app.Messages).toHaveBeenCalledTimes(2);
    await settle();
    emit(state('running'), ev({ kind: 'turn_end', turn: 2, stopReason: 'end_turn' }));
    await settle();
    expect(app.Messages).toHaveBeenCalledTimes(3);
    expect(screen.getByTestId('inspector').textContent).toContain('No protocol messages');
  });

  it('renders the last 500 rows of a long journal, with a control for earlier ones', async () => {
    app.Messages.mockImplementation(async () =>
      Array.from({ length: 1_200 }, (_, i) => ({ direction: 'in', method: `m${i}`, json: '{}', at })),
    );
    await startSession();
    emit(state('idle'));
    await fireEvent.click(screen.getByTestId('inspector-toggle'));
    await settle();
    let rows = screen.getAllByTestId('inspector-row');
    expect(rows).toHaveLength(500);
    expect(rows[0].dataset.method).toBe('m700');
    expect(rows[499].dataset.method).toBe('m1199');
    const earlier = screen.getByTestId('inspector-earlier');
    expect(earlier.textContent).toContain('700 more');
    await fireEvent.click(earlier);
    rows = screen.getAllByTestId('inspector-row');
    expect(rows).toHaveLength(1_000);
    await fireEvent.click(screen.getByTestId('inspector-earlier'));
    expect(screen.getAllByTestId('inspector-row')).toHaveLength(1_200);
    expect(screen.queryByTestId('inspector-earlier')).toBeNull();
  });

  it('follows the shown session: a saved one, then back to live', async () => {
    app.ListHistory.mockImplementation(async () => [historyItem('h1', 'Old')]);
    app.OpenHistory.mockImplementation(async (id: string) => emptySnapshot(id, { state: '' }));
    await startSession();
    emit(state('idle'));
    await fireEvent.click(screen.getByTestId('inspector-toggle'));
    await settle();
    await fireEvent.click(screen.getAllByTestId('history-item')[0]);
    await settle();
    expect(app.Messages).toHaveBeenLastCalledWith('h1');
    expect(screen.getByTestId('inspector')).toBeTruthy();
    await fireEvent.click(screen.getByTestId('back-to-live'));
    await settle();
    expect(app.Messages).toHaveBeenLastCalledWith(SID);
  });
});

describe('Ctrl+K', () => {
  it('focuses the history search from anywhere (Ctrl and Cmd)', async () => {
    await startSession();
    emit(state('idle'));
    const search = screen.getByTestId('history-search');
    (screen.getByTestId('composer-input') as HTMLTextAreaElement).focus();
    expect(document.activeElement).not.toBe(search);
    const e = new KeyboardEvent('keydown', { key: 'k', ctrlKey: true, bubbles: true, cancelable: true });
    screen.getByTestId('composer-input').dispatchEvent(e);
    expect(document.activeElement).toBe(search);
    expect(e.defaultPrevented).toBe(true);
    (screen.getByTestId('composer-input') as HTMLTextAreaElement).focus();
    await fireEvent.keyDown(window, { key: 'K', metaKey: true });
    expect(document.activeElement).toBe(search);
    // Plain k, or with Shift/Alt, does nothing.
    (screen.getByTestId('composer-input') as HTMLTextAreaElement).focus();
    await fireEvent.keyDown(window, { key: 'k' });
    await fireEvent.keyDown(window, { key: 'k', ctrlKey: true, shiftKey: true });
    expect(document.activeElement).toBe(screen.getByTestId('composer-input'));
  });
});
