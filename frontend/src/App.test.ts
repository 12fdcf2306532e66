import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import App from './App.svelte';
import type { ManualClock } from './lib/clock';
import type { SessionEvent } from './lib/protocol';
import { REORDER_WAIT_MS } from './state/session.svelte';
import { app, emit, emitBatch, ev, runtime, settle } from './test/harness';
import { resetPage } from './test/page';
import { FOLDER, SID, emptySnapshot } from './test/mocks';

let clock: ManualClock;

function byTestId(root: ParentNode, id: string): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`));
}

async function renderApp() {
  const r = render(App, { props: { clock } });
  await waitFor(() => expect(screen.getAllByTestId('agent-option')).toHaveLength(3));
  await waitFor(() => expect((screen.getByTestId('cwd-input') as HTMLInputElement).value).toBe(FOLDER));
  return r;
}

async function startSession() {
  const r = await renderApp();
  await fireEvent.click(screen.getByTestId('start-session'));
  await waitFor(() => expect(screen.getByTestId('session-state').textContent).toBe('starting'));
  await settle();
  return r;
}

function state(s: string): SessionEvent {
  return ev({ kind: 'state', state: s });
}

beforeEach(() => {
  clock = resetPage();
  runtime.BrowserOpenURL.mockClear();
});

afterEach(() => cleanup());

describe('start-up', () => {
  it('lists the agents, selects the first one and fills the folder with DefaultFolder()', async () => {
    await renderApp();
    const picker = screen.getByTestId('agent-picker') as HTMLSelectElement;
    expect(picker.tagName).toBe('SELECT');
    expect(picker.value).toBe('demo');
    const options = screen.getAllByTestId('agent-option') as HTMLOptionElement[];
    expect(options.map((o) => o.dataset.agentId)).toEqual(['demo', 'claude', 'codex']);
    expect(options[2].disabled).toBe(true);
    expect(options[2].textContent).toContain('codex-acp not found on PATH');
    expect(options[0].disabled).toBe(false);
    expect(app.ListHistory).toHaveBeenCalledWith('');
    expect(screen.queryByTestId('session-state')).toBeNull();
    expect(screen.getByTestId('transcript')).toBeTruthy();
  });

  it('tells once at start-up that a damaged history file was set aside', async () => {
    app.HistoryNotice.mockImplementation(async () => 'the damaged history file was moved to agentdesk.db.damaged-1');
    await renderApp();
    await waitFor(() => expect(screen.getByTestId('error-banner').textContent).toContain('moved to agentdesk.db.damaged-1'));
    expect(screen.queryByTestId('history-status')).toBeNull();
  });

  it('shows a failed binding call in a dismissible error banner', async () => {
    app.StartSession.mockImplementation(async () => {
      throw 'agent "demo" could not start: exec: not found';
    });
    await renderApp();
    await fireEvent.click(screen.getByTestId('start-session'));
    const banner = await screen.findByTestId('error-banner');
    expect(banner.textContent).toContain('agent "demo" could not start: exec: not found');
    await fireEvent.click(within(banner).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('error-banner')).toBeNull();
  });
});

describe('a live session', () => {
  it('Start calls StartSession with the picked agent and folder, then takes a snapshot', async () => {
    await startSession();
    expect(app.StartSession).toHaveBeenCalledWith('demo', FOLDER, [], false, false);
    expect(app.Snapshot).toHaveBeenCalledWith(SID);
    expect(app.ListHistory).toHaveBeenCalledTimes(2);
    emit(state('starting'), state('idle'));
    expect(screen.getByTestId('session-state').textContent).toBe('idle');
  });

  it('a start from the folder field (Enter) hands the keyboard to the prompt box', async () => {
    await renderApp();
    const cwd = screen.getByTestId('cwd-input');
    cwd.focus();
    await fireEvent.keyDown(cwd, { key: 'Enter' });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('composer-input')));
    expect(app.StartSession).toHaveBeenCalledWith('demo', FOLDER, [], false, false);
  });

  it('renders the golden sample turn with the test ids of the contract', async () => {
    await startSession();
    const path = resolve(dirname(fileURLToPath(import.meta.url)), '../../testdata/events/sample_turn.json');
    const events = (JSON.parse(readFileSync(path, 'utf8')) as SessionEvent[]).map((e) => ({ ...e, sessionId: SID }));
    emit(...events);
    clock.advance(100); // let throttled Markdown catch up
    flushSync();

    const transcript = screen.getByTestId('transcript');
    const entries = byTestId(transcript, 'entry');
    expect(entries.map((e) => `${e.dataset.kind}:${e.dataset.entryId}`)).toEqual([
      'user:u1',
      'thought:t1',
      'plan:p1',
      'tool:tc1',
      'agent:a1',
    ]);
    const tool = entries[3];
    expect(tool.dataset.status).toBe('completed');
    expect(tool.textContent).toContain('Edit README.md');
    expect(tool.textContent).toContain('/work/project/README.md:1');
    expect(tool.textContent).toContain('Allowed once');
    expect(tool.querySelectorAll('.ln.add')).toHaveLength(2);
    expect(entries[4].querySelector('code')?.textContent).toBe('README.md');
    expect(entries[4].textContent).toContain('I added a greeting to README.md.');
    expect(byTestId(transcript, 'permission')).toHaveLength(0);
    const ends = byTestId(transcript, 'turn-end');
    expect(ends.map((e) => e.dataset.stopReason)).toEqual(['end_turn']);
    expect(ends[0].previousElementSibling?.querySelector('[data-entry-id="a1"]')).toBeTruthy();
    expect(screen.getByTestId('session-state').textContent).toBe('idle');
    // Thoughts collapse once the next entry starts.
    expect(entries[1].querySelector('.md')).toBeNull();
    expect(app.ListHistory).toHaveBeenCalledTimes(3); // mount, start, turn_end
  });

  it('applies every event of a batched message, in order', async () => {
    await startSession();
    const path = resolve(dirname(fileURLToPath(import.meta.url)), '../../testdata/events/sample_turn.json');
    const events = (JSON.parse(readFileSync(path, 'utf8')) as SessionEvent[]).map((e) => ({ ...e, sessionId: SID }));
    emitBatch(...events.slice(0, 3));
    emitBatch(...events.slice(3));
    clock.advance(100);
    flushSync();
    const entries = byTestId(screen.getByTestId('transcript'), 'entry');
    expect(entries.map((e) => e.dataset.entryId)).toEqual(['u1', 't1', 'p1', 'tc1', 'a1']);
    expect(entries[4].textContent).toContain('I added a greeting to README.md.');
    expect(screen.getByTestId('session-state').textContent).toBe('idle');
    expect(app.Snapshot).toHaveBeenCalledTimes(1); // no gap was seen: no resync
  });

  it('renders every entry kind', async () => {
    await startSession();
    emit(
      state('idle'),
      state('running'),
      ev({ kind: 'entry', entry: { id: 'use', kind: 'usage', turn: 1, usage: { used: 50_000, size: 200_000, cost: { amount: 0.12, currency: 'USD' } } } }),
      ev({ kind: 'entry', entry: { id: 'unk', kind: 'unknown', turn: 1, updateKind: 'fancy_new_thing', raw: { a: 1 } } }),
      ev({ kind: 'entry', entry: { id: 'err', kind: 'error', turn: 1, text: 'Internal error', data: { code: -32603 }, stderr: 'panic: boom' } }),
      ev({ kind: 'entry', entry: { id: 'sh', kind: 'tool', turn: 1, toolKind: 'execute', title: 'Run make', status: 'in_progress', content: [{ type: 'content', text: '$ make\nok' }] } }),
      ev({ kind: 'entry', entry: { id: 'nf', kind: 'tool', turn: 1, toolKind: 'edit', title: 'Create a.txt', status: 'failed', content: [{ type: 'diff', path: 'a.txt', newText: 'x\ny\n' }] } }),
    );
    const t = screen.getByTestId('transcript');
    expect(t.querySelector('[data-kind="usage"]')?.textContent).toContain('50k / 200k');
    expect(t.querySelector('[data-kind="usage"]')?.textContent).toContain('$0.1200');
    expect(t.querySelector('[data-kind="unknown"]')?.textContent).toContain('Unsupported update: fancy_new_thing');
    expect(t.querySelector('[data-kind="unknown"] pre')?.textContent).toContain('"a": 1');
    const err = t.querySelector('[data-kind="error"]')!;
    expect(err.textContent).toContain('Internal error');
    expect(err.textContent).toContain('-32603');
    expect(err.textContent).toContain('panic: boom');
    expect(t.querySelector('[data-entry-id="sh"] pre.terminal')?.textContent).toBe('$ make\nok');
    expect(t.querySelector('[data-entry-id="sh"]')?.getAttribute('data-status')).toBe('in_progress');
    const nf = t.querySelector('[data-entry-id="nf"]')!;
    expect(nf.getAttribute('data-status')).toBe('failed');
    expect(nf.querySelectorAll('.ln.add')).toHaveLength(2);
    expect(nf.querySelectorAll('.ln.del')).toHaveLength(0);
  });

  it('shows permissions inside their tool card and answers with the right ids', async () => {
    await startSession();
    emit(
      state('idle'),
      state('running'),
      ev({ kind: 'entry', entry: { id: 'e6', kind: 'tool', turn: 1, toolKind: 'edit', title: 'Edit NOTES.md', status: 'pending' } }),
      ev({
        kind: 'permission',
        requestId: '7',
        toolCallId: 'e6',
        title: 'Edit NOTES.md',
        options: [
          { id: 'allow', name: 'Allow', kind: 'allow_once', verdict: 'allow' },
          { id: 'always', name: 'Always allow', kind: 'allow_always', verdict: 'allow', always: true },
          { id: 'reject', name: 'Reject', kind: 'reject_once', verdict: 'reject' },
        ],
      }),
      ev({
        kind: 'permission',
        requestId: '8',
        toolCallId: 'nowhere',
        title: 'Read secrets',
        options: [{ id: 'no', name: 'Reject', kind: 'reject_always', verdict: 'reject', always: true }],
      }),
    );
    const card = screen.getByTestId('transcript').querySelector<HTMLElement>('[data-entry-id="e6"]')!;
    const perm = within(card).getByTestId('permission');
    expect(perm.dataset.requestId).toBe('7');
    const buttons = within(perm).getAllByTestId('permission-option') as HTMLButtonElement[];
    expect(buttons.map((b) => b.tagName)).toEqual(['BUTTON', 'BUTTON', 'BUTTON']);
    expect(buttons.map((b) => b.dataset.optionKind)).toEqual(['allow_once', 'allow_always', 'reject_once']);
    expect(buttons.map((b) => b.textContent)).toEqual(['Allow', 'Always allow', 'Reject']);

    // A request without its tool card renders standalone; several are open at once.
    const all = screen.getAllByTestId('permission');
    expect(all.map((p) => p.dataset.requestId)).toEqual(['7', '8']);

    await fireEvent.click(buttons[0]);
    expect(app.AnswerPermission).toHaveBeenCalledWith(SID, '7', 'allow');

    emit(
      ev({
        kind: 'permission_done',
        requestId: '7',
        decision: { requestId: '7', toolCallId: 'e6', outcome: 'selected', optionId: 'allow', optionName: 'Allow', optionKind: 'allow_once', verdict: 'allow', decidedBy: 'user' },
      }),
    );
    expect(within(card).queryByTestId('permission')).toBeNull();
    expect(card.textContent).toContain('Allowed once');
    emit(ev({ kind: 'permission_done', requestId: '8', decision: { requestId: '8', toolCallId: '', outcome: 'cancelled', decidedBy: 'cancel' } }));
    expect(screen.queryAllByTestId('permission')).toHaveLength(0);
  });

  it('Stop calls Stop while running, and Esc does too', async () => {
    await startSession();
    emit(state('idle'));
    const stop = screen.getByTestId('stop') as HTMLButtonElement;
    expect(stop.disabled).toBe(true);
    emit(state('running'));
    expect(stop.disabled).toBe(false);
    await fireEvent.click(stop);
    expect(app.Stop).toHaveBeenCalledWith(SID);
    await fireEvent.keyDown(screen.getByTestId('composer-input'), { key: 'Escape' });
    expect(app.Stop).toHaveBeenCalledTimes(2);
    emit(state('cancelling'));
    expect((screen.getByTestId('stop') as HTMLButtonElement).disabled).toBe(true);
  });

  it('Enter sends, Shift+Enter does not; Send needs text, and queues during a turn', async () => {
    await startSession();
    const input = screen.getByTestId('composer-input') as HTMLTextAreaElement;
    const send = screen.getByTestId('send') as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    emit(state('idle'));
    expect(send.disabled).toBe(true); // no text yet
    await fireEvent.input(input, { target: { value: 'hello' } });
    expect(send.disabled).toBe(false);

    await fireEvent.keyDown(input, { key: 'Enter', shiftKey: true });
    expect(app.Prompt).not.toHaveBeenCalled();

    await fireEvent.keyDown(input, { key: 'Enter' });
    expect(app.Prompt).toHaveBeenCalledWith(SID, 'hello');
    await settle();
    expect(input.value).toBe('');

    // During a turn Enter queues it (the engine queues a prompt sent during a turn).
    emit(state('running'));
    await fireEvent.input(input, { target: { value: 'next' } });
    expect((screen.getByTestId('send') as HTMLButtonElement).disabled).toBe(false);
    expect(screen.getByTestId('send').textContent).toContain('Queue');
    await fireEvent.keyDown(input, { key: 'Enter' });
    expect(app.Prompt).toHaveBeenCalledTimes(2);
    expect(app.Prompt).toHaveBeenLastCalledWith(SID, 'next');
    await settle();
    expect(input.value).toBe('');
  });

  it('keeps the prompt when Prompt fails and shows the error', async () => {
    app.Prompt.mockImplementation(async () => {
      throw 'session is busy';
    });
    await startSession();
    emit(state('idle'));
    const input = screen.getByTestId('composer-input') as HTMLTextAreaElement;
    await fireEvent.input(input, { target: { value: 'hello' } });
    await fireEvent.click(screen.getByTestId('send'));
    await settle();
    expect(input.value).toBe('hello');
    expect(screen.getByTestId('error-banner').textContent).toContain('session is busy');
  });

  it('offers a hard stop after 10 s of cancelling', async () => {
    await startSession();
    emit(state('idle'), state('running'), state('cancelling'));
    expect(screen.queryByTestId('hard-stop')).toBeNull();
    clock.advance(9_000);
    flushSync();
    expect(screen.queryByTestId('hard-stop')).toBeNull();
    clock.advance(1_500);
    flushSync();
    const hard = screen.getByTestId('hard-stop');
    await fireEvent.click(hard);
    expect(app.HardStop).toHaveBeenCalledWith(SID);
    emit(ev({ kind: 'turn_end', turn: 1, stopReason: 'interrupted' }), state('idle'));
    expect(screen.queryByTestId('hard-stop')).toBeNull();
    expect(screen.getByTestId('turn-end').dataset.stopReason).toBe('interrupted');
  });

  it('offers to restart an agent that exited, and calls ContinueSession', async () => {
    await startSession();
    emit(state('idle'), ev({ kind: 'state', state: 'exited', message: 'the agent exited (signal: killed)' }));
    const restart = await screen.findByTestId('continue-session');
    expect(screen.getByTestId('session-notice').textContent).toContain('signal: killed');
    await fireEvent.click(restart);
    expect(app.ContinueSession).toHaveBeenCalledWith(SID);
    emit(state('starting'), state('idle'));
    expect(screen.queryByTestId('continue-session')).toBeNull();
  });

  it('shows an elapsed-time indicator when the agent is silent', async () => {
    await startSession();
    emit(state('idle'), state('running'));
    clock.advance(1_500);
    flushSync();
    expect(screen.queryByTestId('working')).toBeNull();
    clock.advance(11_000);
    flushSync();
    expect(screen.getByTestId('working').textContent).toContain('Working… 12 s');
    emit(ev({ kind: 'entry', entry: { id: 'a', kind: 'agent', turn: 1, text: 'hi' } }));
    expect(screen.queryByTestId('working')).toBeNull();
  });

  it('renders tool titles, paths and user text as text, never HTML', async () => {
    await startSession();
    emit(
      state('idle'),
      ev({ kind: 'entry', entry: { id: 'u', kind: 'user', turn: 1, text: '<b>not bold</b>' } }),
      ev({
        kind: 'entry',
        entry: {
          id: 't',
          kind: 'tool',
          turn: 1,
          title: '<img src=x onerror="alert(1)"><b>bold</b>',
          status: 'pending',
          locations: [{ path: '<i>p</i>', line: 3 }],
          content: [{ type: 'diff', path: '<script>x</script>', oldText: '<b>', newText: '<i>' }],
        },
      }),
    );
    const t = screen.getByTestId('transcript');
    const card = t.querySelector('[data-entry-id="t"]')!;
    expect(card.querySelector('img')).toBeNull();
    expect(card.querySelector('b')).toBeNull();
    expect(card.querySelector('i')).toBeNull();
    expect(card.querySelector('script')).toBeNull();
    expect(card.textContent).toContain('<img src=x onerror="alert(1)"><b>bold</b>');
    expect(card.textContent).toContain('<i>p</i>:3');
    expect(t.querySelector('[data-entry-id="u"] b')).toBeNull();
    expect(t.querySelector('[data-entry-id="u"]')?.textContent).toContain('<b>not bold</b>');
  });

  it('resyncs from Snapshot on a seq gap', async () => {
    await startSession();
    emit(state('idle'));
    app.Snapshot.mockImplementation(async (id: string) =>
      emptySnapshot(id, { seq: 9, state: 'idle', entries: [{ id: 'x', kind: 'agent', turn: 1, text: 'from snapshot' }] }),
    );
    emit({ sessionId: SID, seq: 9, kind: 'state', state: 'idle' });
    expect(app.Snapshot).toHaveBeenCalledTimes(1); // seq 2..8 may only be late
    clock.advance(REORDER_WAIT_MS);
    await settle();
    expect(app.Snapshot).toHaveBeenCalledTimes(2);
    expect(screen.getByTestId('transcript').querySelector('[data-entry-id="x"]')?.textContent).toContain('from snapshot');
  });

  it('ignores events of other sessions', async () => {
    await startSession();
    emit({ sessionId: 'other', seq: 1, kind: 'entry', entry: { id: 'z', kind: 'agent', turn: 1, text: 'nope' } });
    expect(screen.getByTestId('transcript').querySelector('[data-entry-id="z"]')).toBeNull();
  });
});

describe('history', () => {
  const items = [
    { id: 'h1', title: 'Fix the build', agentName: 'Claude Code', cwd: '/home/me/api', createdAt: '2026-03-10T09:00:00Z', updatedAt: '2026-03-10T11:00:00Z', outcome: 'end_turn', turns: 3, snippet: 'ran [[go test]] <b>ok</b>' },
    { id: SID, title: 'Live one', agentName: 'Demo agent', cwd: FOLDER, createdAt: '2026-03-10T11:59:00Z', updatedAt: '2026-03-10T11:59:30Z', outcome: 'running', turns: 0 },
  ];

  it('lists, searches (debounced) and opens saved sessions read-only', async () => {
    app.ListHistory.mockImplementation(async () => items);
    app.OpenHistory.mockImplementation(async (id: string) =>
      emptySnapshot(id, { state: '', agentName: 'Claude Code', cwd: '/home/me/api', title: 'Fix the build', entries: [{ id: 'old', kind: 'agent', turn: 1, text: 'old answer' }], turns: [{ turn: 1, stopReason: 'end_turn' }] }),
    );
    await startSession();
    emit(state('idle'));
    const list = screen.getByTestId('history-list');
    await waitFor(() => expect(within(list).getAllByTestId('history-item')).toHaveLength(2));
    const first = within(list).getAllByTestId('history-item')[0];
    expect(first.dataset.sessionId).toBe('h1');
    expect(first.textContent).toContain('Fix the build');
    expect(first.textContent).toContain('Claude Code');
    expect(first.textContent).toContain('api');
    expect(first.textContent).toContain('1 h ago');
    expect(first.querySelector('mark')?.textContent).toBe('go test');
    expect(first.querySelector('b')).toBeNull();
    expect(first.textContent).toContain('<b>ok</b>');

    // Search is debounced by 200 ms.
    app.ListHistory.mockClear();
    const search = screen.getByTestId('history-search');
    await fireEvent.input(search, { target: { value: 'go' } });
    await fireEvent.input(search, { target: { value: 'go test' } });
    clock.advance(150);
    expect(app.ListHistory).not.toHaveBeenCalled();
    clock.advance(60);
    expect(app.ListHistory).toHaveBeenCalledTimes(1);
    expect(app.ListHistory).toHaveBeenCalledWith('go test');
    await settle();

    // Open a saved session: read-only, with a way back.
    await fireEvent.click(within(list).getAllByTestId('history-item')[0]);
    await settle();
    expect(app.OpenHistoryPart).toHaveBeenCalledWith('h1', -1, 200);
    expect(app.OpenHistoryPart).toHaveBeenCalledTimes(1); // the end was the whole session
    const header = screen.getByTestId('session-header');
    expect(header.textContent).toContain('Saved session · Claude Code · api');
    expect(screen.getByTestId('transcript').textContent).toContain('old answer');
    expect(screen.queryByTestId('composer-input')).toBeNull();
    expect(screen.getByTestId('session-state').textContent).toBe('idle'); // the live session's

    await fireEvent.click(screen.getByText('Back to live session'));
    expect(screen.getByTestId('composer-input')).toBeTruthy();
    expect(screen.getByTestId('transcript').textContent).not.toContain('old answer');

    // Clicking the live session's item just shows the live session.
    await fireEvent.click(within(list).getAllByTestId('history-item')[1]);
    expect(app.OpenHistoryPart).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('composer-input')).toBeTruthy();
  });
});
