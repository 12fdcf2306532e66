// The prompt queue in the transcript state: queue events replace the whole queue, a snapshot
// carries it, and the Go side's golden (testdata/events/queue_turn.json) folds to it.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../lib/protocol';
import { apply, applyAll, emptyState, fromSnapshot, lastUserText } from './transcript';

const here = dirname(fileURLToPath(import.meta.url));
const golden = JSON.parse(readFileSync(resolve(here, '../../../testdata/events/queue_turn.json'), 'utf8')) as SessionEvent[];

describe('queue state', () => {
  it('a queue event replaces the queue; one without a queue empties it', () => {
    let s = apply(emptyState('s1'), { sessionId: 's1', seq: 1, kind: 'queue', queue: [{ id: 'q1', text: 'a' }] });
    expect(s.queue).toEqual([{ id: 'q1', text: 'a' }]);
    s = apply(s, { sessionId: 's1', seq: 2, kind: 'queue' });
    expect(s.queue).toEqual([]);
  });

  it('a snapshot carries the queue, held prompts included', () => {
    const s = fromSnapshot({
      sessionId: 's1', seq: 4, state: 'exited', agentName: 'A', cwd: '/p', title: '', entries: [], permissions: [], turns: [],
      queue: [{ id: 'q3', text: 'not sent', held: true }],
    });
    expect(s.queue).toEqual([{ id: 'q3', text: 'not sent', held: true }]);
  });

  it('queue_turn.json: the queue ends empty, the steered prompt is in turn 1, the other is turn 2', () => {
    const s = applyAll(emptyState('s1'), golden);
    expect(s.queue).toEqual([]);
    const users = s.entries.filter((e) => e.kind === 'user').map((e) => [e.turn, e.text, !!e.steered]);
    expect(users).toEqual([
      [1, 'first', false],
      [1, 'go left', true],
      [2, 'then this, please', false],
    ]);
    expect(s.controls?.canSteer).toBe(true);
    // The queue as it stood once both prompts were queued and one edited.
    const upTo = golden.findIndex((e) => e.kind === 'queue' && e.queue?.[0]?.text === 'then this, please');
    expect(applyAll(emptyState('s1'), golden.slice(0, upTo + 1)).queue?.map((q) => q.text)).toEqual(['then this, please', 'go left']);
    expect(lastUserText(s.entries)).toBe('then this, please');
  });
});
