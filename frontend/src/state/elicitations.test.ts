// Open elicitations as decisions waiting: the reducer's list of their ids, what the session row
// and the working indicator read from it, the rows the transcript keeps rendered, and the store's
// report of each one that opens.
import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import type { Entry, SessionEvent } from '../lib/protocol';
import { elicitationEntry } from '../test/elicitation';
import { emptySnapshot } from '../test/mocks';
import { elicitationTitle } from './attention';
import { liveStatus, waitingCount } from './live-status';
import { SessionStore } from './session.svelte';
import { apply, applyAll, emptyState, fromSnapshot, type TranscriptState } from './transcript';
import { TranscriptView } from './view.svelte';

const SID = 's1';
let seq = 0;
const entryEvent = (entry: Entry): SessionEvent => ({ sessionId: SID, seq: ++seq, kind: 'entry', entry });
const running = (): TranscriptState => ({ ...emptyState(SID), state: 'running' });

describe('open elicitations in the transcript state', () => {
  it('lists each while it is open, in arrival order, and drops it once it settles', () => {
    let s = running();
    const before = s.elicitations;
    s = apply(s, entryEvent({ id: 'a1', kind: 'agent', turn: 1, text: 'hi' }));
    expect(s.elicitations).toBe(before); // untouched by other entries
    s = apply(s, entryEvent(elicitationEntry('form')));
    s = apply(s, entryEvent(elicitationEntry('url')));
    expect(s.elicitations).toEqual(['elicitation-7', 'elicitation-9']);
    const open = s.elicitations;
    s = apply(s, entryEvent(elicitationEntry('form'))); // upserted again, still open
    expect(s.elicitations).toBe(open);
    s = applyAll(s, [entryEvent(elicitationEntry('formAccepted')), entryEvent(elicitationEntry('urlCompleted'))]);
    expect(s.elicitations).toEqual([]);
    expect(s.entries.map((e) => e.elicitation?.state ?? e.kind)).toEqual(['agent', 'accepted', 'completed']);
  });

  it('is rebuilt from a snapshot', () => {
    const s = fromSnapshot(emptySnapshot(SID, { entries: [elicitationEntry('cancelled'), elicitationEntry('url'), elicitationEntry('invalid')] }));
    expect(s.elicitations).toEqual(['elicitation-9']);
  });

  it('makes a running session wait, as a permission does', () => {
    let s = running();
    expect(liveStatus(s)).toBe('working');
    s = apply(s, entryEvent(elicitationEntry('form')));
    expect(waitingCount(s)).toBe(1);
    expect(liveStatus(s)).toBe('waiting');
    expect(waitingCount({ state: 'running', permissions: [] })).toBe(0);
  });

  it("keeps an open elicitation's row rendered (guarded) until it settles", () => {
    const tv = new TranscriptView();
    let s = apply(running(), entryEvent({ id: 'a1', kind: 'agent', turn: 1, text: 'hi' }));
    s = apply(s, entryEvent(elicitationEntry('form')));
    tv.sync(s);
    expect(tv.guarded).toEqual([1]);
    s = apply(s, entryEvent(elicitationEntry('formAccepted')));
    tv.sync(s);
    expect(tv.guarded).toEqual([]);
  });

  it('titles a notification with the first line of the message, bounded', () => {
    const e = elicitationEntry('form');
    e.elicitation!.message = 'First line\nsecond';
    expect(elicitationTitle(e)).toBe('First line');
    e.elicitation!.message = 'x'.repeat(500);
    expect(elicitationTitle(e).length).toBe(120);
    e.elicitation!.message = '';
    expect(elicitationTitle(e)).toBe('a question');
  });
});

describe('SessionStore', () => {
  it('reports each elicitation once when it opens, not when it settles', async () => {
    const opened: string[] = [];
    const store = new SessionStore({
      snapshot: async (id) => emptySnapshot(id, { state: 'running' }),
      onElicitation: (_state, entry) => opened.push(entry.id),
    });
    await store.attach({ sessionId: SID, agentId: 'demo', agentName: 'Demo agent', cwd: '/p' });
    flushSync();
    seq = 0;
    store.handleAll([entryEvent(elicitationEntry('form')), entryEvent(elicitationEntry('form'))]);
    store.handleAll([entryEvent(elicitationEntry('form'))]);
    store.handleAll([entryEvent(elicitationEntry('formAccepted')), entryEvent(elicitationEntry('url'))]);
    expect(opened).toEqual(['elicitation-7', 'elicitation-9']);
  });
});
