// How a live session's end is told (state/ending.ts): sentences, never a repeat of the error entry.
import { describe, expect, it } from 'vitest';
import type { Entry, TurnInfo } from '../lib/protocol';
import { endedHint, sentence, sessionEnding } from './ending';
import { emptyState, type TranscriptState } from './transcript';

function view(state: TranscriptState['state'], message: string, entries: Entry[] = [], turns: TurnInfo[] = []): TranscriptState {
  return { ...emptyState('s', { state }), message, entries, turns };
}

describe('sessionEnding', () => {
  it('says nothing while the session goes on', () => {
    expect(sessionEnding(null, true)).toBeNull();
    expect(sessionEnding(view('idle', ''), true)).toBeNull();
    expect(sessionEnding(view('', ''), true)).toBeNull();
  });

  it('makes sentences', () => {
    expect(sentence('the agent exited (exit status 1)')).toBe('The agent exited (exit status 1).');
    expect(sentence('  Done. ')).toBe('Done.');
    expect(sentence('')).toBe('');
  });

  it('does not repeat a failed start told by its error entry', () => {
    const msg = 'Demo did not answer initialize within 2 min';
    const told = sessionEnding(view('failed', msg, [{ id: 'e1', kind: 'error', turn: 0, text: msg }]), true)!;
    expect(told).toMatchObject({ tone: 'failed', text: '', restart: false });
    expect(endedHint(told)).toBe('The agent did not start. Start a new session to try again.');
    const untold = sessionEnding(view('failed', msg), true)!;
    expect(untold.text).toBe(`The agent did not start. ${msg}.`);
  });

  it('tells an exit, a hard stop and an ignored Stop each in one sentence, then what to do', () => {
    const exited = sessionEnding(view('exited', 'the agent exited (exit status 0)'), true)!;
    expect(endedHint(exited)).toBe('The agent exited (exit status 0). Restart it to go on with this session, or start a new one.');
    const hard = sessionEnding(
      view('exited', 'the agent exited (signal: killed)', [], [{ turn: 1, stopReason: 'interrupted', message: "stopped hard: the agent's processes were killed" }]),
      true,
    )!;
    expect(hard.text).toBe('The agent was stopped hard (its processes were killed).');
    const ignored = 'the agent ignored Stop for 30 s and was stopped hard (its processes were killed)';
    expect(sessionEnding(view('exited', ignored, [], [{ turn: 1, stopReason: 'interrupted', message: ignored }]), false)).toMatchObject({
      text: 'The agent ignored Stop for 30 s and was stopped hard (its processes were killed).',
      next: 'Start a new session to continue.',
      restart: false,
    });
    expect(sessionEnding(view('exited', ''), true)!.text).toBe('The agent exited.');
    // Exited during a turn: the turn's error entry and divider said how; the notice does not again.
    const during = sessionEnding(view('exited', 'the agent exited (exit status 0)', [], [{ turn: 1, stopReason: 'error', message: 'the agent exited (exit status 0)' }]), true)!;
    expect(endedHint(during)).toBe('The agent has stopped. Restart it to go on with this session, or start a new one.');
  });
});
