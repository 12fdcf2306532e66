// The words of an attention request (state/attention.ts); the page-level behaviour is in
// App.attention.test.ts.
import { describe, expect, it, vi } from 'vitest';
import type { Entry, TurnInfo } from '../lib/protocol';
import { emptySnapshot } from '../test/mocks';
import { Attention, finishedTitle, permissionTitle } from './attention';
import { fromSnapshot } from './transcript';

const PROMPT: Entry = { id: 'u1', kind: 'user', turn: 1, text: '  fix the build\n' };
const TOOL: Entry = { id: 't1', kind: 'tool', turn: 1, title: 'Run make', status: 'pending' };

function session(extra: { title?: string; state?: string; entries?: Entry[]; turns?: TurnInfo[] } = {}) {
  return fromSnapshot(emptySnapshot('s1', { state: 'idle', entries: [PROMPT, TOOL], ...extra } as never));
}

describe('attention texts', () => {
  it('a permission is named by its own title, else by its tool card', () => {
    const s = session();
    expect(permissionTitle(s, { requestId: 'r', toolCallId: 't1', title: 'Edit a.go', options: null })).toBe('Edit a.go');
    expect(permissionTitle(s, { requestId: 'r', toolCallId: 't1', title: ' ', options: null })).toBe('Run make');
    expect(permissionTitle(s, { requestId: 'r', toolCallId: 'nowhere', title: '', options: null })).toBe('a tool call');
  });

  it('a finished session is named by its title, else its first prompt, with an unusual end', () => {
    expect(finishedTitle(session({ title: 'Build fixer' }))).toBe('Build fixer');
    expect(finishedTitle(session())).toBe('fix the build');
    expect(finishedTitle(session({ entries: [] }))).toBe('Untitled session');
    expect(finishedTitle(session({ turns: [{ turn: 1, stopReason: 'max_tokens' }] }))).toBe('fix the build (max tokens)');
    expect(finishedTitle(session({ turns: [{ turn: 1, stopReason: 'end_turn' }] }))).toBe('fix the build');
    expect(finishedTitle(session({ state: 'failed' }))).toBe('fix the build (the agent failed)');
  });

  it('asks only while unfocused, and says seen once per round of asking', async () => {
    let focused = false;
    const notify = vi.fn(async () => {});
    const seen = vi.fn(async () => {});
    const attention = new Attention({ focused: () => focused, notify, seen });
    attention.looked();
    expect(seen).not.toHaveBeenCalled();

    attention.finished(session());
    expect(notify).toHaveBeenCalledWith('s1', 'finished', 'Demo agent', 'fix the build');
    attention.looked(); // still not focused: the user has not seen it
    expect(seen).not.toHaveBeenCalled();

    focused = true;
    attention.permission(session(), { requestId: 'r', toolCallId: 't1', title: '', options: null });
    expect(notify).toHaveBeenCalledTimes(1);
    attention.looked();
    attention.looked();
    expect(seen).toHaveBeenCalledTimes(1);
  });
});
