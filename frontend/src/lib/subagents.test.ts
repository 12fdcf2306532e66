import { describe, expect, it } from 'vitest';
import type { HistoryItem } from './protocol';
import { historyTree, subagentStateText } from './subagents';

const item = (id: string, subagentOf?: string): HistoryItem =>
  ({ id, title: id, agentName: 'Demo agent', cwd: '/p', createdAt: '', updatedAt: '', outcome: 'end_turn', turns: 0, subagentOf }) as HistoryItem;

describe('historyTree', () => {
  it('puts each subagent session under its parent, at every depth, in the list order', () => {
    const rows = historyTree([item('c2', 'p'), item('other'), item('g1', 'c1'), item('p'), item('c1', 'p')]);
    expect(rows.map((r) => `${r.item.id}@${r.depth}`)).toEqual(['other@0', 'p@0', 'c2@1', 'c1@1', 'g1@2']);
  });

  it('leaves a child whose parent is not listed at the top level, and follows no cycle', () => {
    const rows = historyTree([item('lost', 'gone'), item('a', 'b'), item('b', 'a')]);
    expect(rows.map((r) => `${r.item.id}@${r.depth}`)).toEqual(['lost@0', 'a@0', 'b@1']);
  });
});

describe('subagentStateText', () => {
  it('says what the child is doing in words', () => {
    const base = { sessionId: 'x', parentId: 'p', agentSessionId: 'k' };
    expect(subagentStateText({ ...base, state: 'running' })).toBe('working');
    expect(subagentStateText({ ...base, state: 'requires_action' })).toBe('needs you');
    expect(subagentStateText({ ...base, state: 'idle', stopReason: 'end_turn' })).toBe('done');
    expect(subagentStateText({ ...base, state: 'idle', stopReason: 'max_tokens' })).toBe('max tokens');
    expect(subagentStateText({ ...base })).toBe('started');
  });
});
