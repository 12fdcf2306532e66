// Golden event logs shared with the Go side: every testdata/events/*.json folded through apply.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../lib/protocol';
import { applyAll, emptyState } from './transcript';

const here = dirname(fileURLToPath(import.meta.url));
const dir = resolve(here, '../../../testdata/events');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort();

function load(file: string): SessionEvent[] {
  const data: unknown = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  if (!Array.isArray(data)) throw new Error(`${file}: not a JSON array`);
  return data as SessionEvent[];
}

function bySession(events: SessionEvent[]): Map<string, SessionEvent[]> {
  const m = new Map<string, SessionEvent[]>();
  for (const e of events) {
    const list = m.get(e.sessionId) ?? [];
    list.push(e);
    m.set(e.sessionId, list);
  }
  return m;
}

describe('golden event files', () => {
  it('exist', () => {
    expect(files.length).toBeGreaterThan(0);
    expect(files).toContain('sample_turn.json');
  });

  describe.each(files)('%s', (file) => {
    const sessions = bySession(load(file));

    it('has well-formed events with contiguous seq per session', () => {
      for (const [, evs] of sessions) {
        evs.forEach((e, i) => {
          expect(typeof e.sessionId).toBe('string');
          expect(['info', 'state', 'entry', 'chunk', 'permission', 'permission_done', 'turn_end', 'queue']).toContain(e.kind);
          expect(e.seq).toBe(evs[0].seq + i);
        });
      }
    });

    it('folds into the expected transcript shape', () => {
      for (const [sid, evs] of sessions) {
        const state = applyAll(emptyState(sid), evs);
        expect(state.seq).toBe(evs[evs.length - 1].seq);

        // One entry per distinct id, in first-seen order.
        const ids: string[] = [];
        for (const e of evs) {
          const id = e.kind === 'entry' ? e.entry.id : e.kind === 'chunk' ? e.entryId : null;
          if (id !== null && !ids.includes(id)) ids.push(id);
        }
        expect(state.entries.map((e) => e.id)).toEqual(ids);

        // Text = the last full entry's text + the chunks that followed it.
        for (const id of ids) {
          let text = '';
          for (const e of evs) {
            if (e.kind === 'entry' && e.entry.id === id) text = e.entry.text ?? '';
            if (e.kind === 'chunk' && e.entryId === id) text += e.text ?? '';
          }
          expect(state.entries.find((x) => x.id === id)?.text ?? '').toBe(text);
        }

        // Every answered request is closed; the rest remain open.
        const opened = evs.filter((e) => e.kind === 'permission').map((e) => e.requestId);
        const closed = new Set(evs.filter((e) => e.kind === 'permission_done').map((e) => e.requestId));
        expect(state.permissions.map((p) => p.requestId)).toEqual(opened.filter((id) => !closed.has(id)));
        expect(state.decisions.map((d) => d.requestId).sort()).toEqual([...closed].sort());

        // Open elicitations: the elicitation entries whose last upsert left them open.
        const elicitState = new Map<string, string>();
        for (const e of evs) if (e.kind === 'entry' && e.entry.kind === 'elicitation') elicitState.set(e.entry.id, e.entry.elicitation?.state ?? '');
        expect([...state.elicitations].sort()).toEqual(ids.filter((id) => elicitState.get(id) === 'open').sort());

        // Final state and last stop reason.
        const states = evs.filter((e) => e.kind === 'state');
        if (states.length) expect(state.state).toBe(states[states.length - 1].state);
        const ends = evs.filter((e) => e.kind === 'turn_end');
        if (ends.length) {
          const last = ends[ends.length - 1];
          expect(state.turns.find((t) => t.turn === last.turn)?.stopReason).toBe(last.stopReason);
        }
      }
    });
  });

  it('sample_turn.json folds to the exact expected transcript', () => {
    const evs = load('sample_turn.json');
    const s = applyAll(emptyState('s-sample'), evs);
    expect(s.state).toBe('idle');
    expect(s.entries.map((e) => `${e.kind}:${e.id}`)).toEqual(['user:u1', 'thought:t1', 'plan:p1', 'tool:tc1', 'agent:a1']);
    expect(s.entries[1].text).toBe('The user wants a greeting. I will read README.md, then edit it.');
    expect(s.entries[2].plan?.every((p) => p.status === 'completed')).toBe(true);
    expect(s.entries[3].status).toBe('completed');
    expect(s.entries[3].content?.[0]).toMatchObject({ type: 'diff', path: '/work/project/README.md' });
    expect(s.entries[4].text).toBe('I added a greeting to `README.md`.');
    expect(s.permissions).toEqual([]);
    expect(s.decisions).toEqual([
      { requestId: 'r1', toolCallId: 'tc1', outcome: 'selected', optionId: 'allow', optionKind: 'allow_once', optionName: 'Allow once', verdict: 'allow', decidedBy: 'user' },
    ]);
    expect(s.turns).toEqual([{ turn: 1, stopReason: 'end_turn' }]);
  });

  it("terminal_turn.json shows the terminal's output in its tool card", () => {
    const s = applyAll(emptyState('s1'), load('terminal_turn.json'));
    const tool = s.entries.find((e) => e.kind === 'tool');
    expect(tool?.status).toBe('failed');
    expect(tool?.content?.[0]).toEqual({
      type: 'terminal',
      terminalId: 'term-1',
      output: 'step 2\nstep 3\n',
      truncated: true,
      exitStatus: { exitCode: 2, signal: null },
    });
  });
});
