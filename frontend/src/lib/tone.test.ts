import { describe, expect, it } from 'vitest';
import { changeTone, decisionHue, elicitationTone, liveHue, outcomeTone, stateTone, toolStatusTone } from './tone';

describe('tones', () => {
  it('colours an outcome by how the session ended', () => {
    expect(['end_turn', 'completed', 'idle', 'ok'].map(outcomeTone)).toEqual(Array(4).fill('tone-ok'));
    expect(['cancelled', 'max_tokens', 'max_turn_requests', 'refusal'].map(outcomeTone)).toEqual(Array(4).fill('tone-warn'));
    expect(['error', 'failed', 'interrupted'].map(outcomeTone)).toEqual(Array(3).fill('tone-bad'));
    expect(['ready', 'running'].map(outcomeTone)).toEqual(Array(2).fill('tone-info'));
    expect(['ended', 'exited', 'something_new'].map(outcomeTone)).toEqual(Array(3).fill('tone-neutral'));
  });

  it("colours a tool call's status", () => {
    expect(['pending', 'in_progress', 'completed', 'failed', 'cancelled', 'incomplete', 'odd'].map(toolStatusTone)).toEqual([
      'tone-neutral',
      'tone-info',
      'tone-ok',
      'tone-bad',
      'tone-warn',
      'tone-neutral',
      'tone-neutral',
    ]);
  });

  it('colours a closed permission by its verdict', () => {
    expect([{ outcome: 'cancelled' }, { outcome: 'selected', verdict: 'allow' }, { outcome: 'selected', verdict: 'reject' }, { outcome: 'selected' }].map(decisionHue)).toEqual(['hue-warn', 'hue-ok', 'hue-bad', '']);
  });

  it("colours a changed file's change", () => {
    expect(['added', 'modified', 'deleted', 'renamed'].map(changeTone)).toEqual(['tone-ok', 'tone-neutral', 'tone-bad', 'tone-info']);
  });

  it('colours how an elicitation ended', () => {
    expect(['accepted', 'completed', 'invalid', 'declined', 'cancelled'].map(elicitationTone)).toEqual(['tone-ok', 'tone-ok', 'tone-bad', 'tone-neutral', 'tone-neutral']);
  });

  it("colours a live session's state and a live row's status", () => {
    expect(['starting', 'idle', 'running', 'cancelling', 'failed', 'exited'].map(stateTone)).toEqual([
      'tone-neutral',
      'tone-ok',
      'tone-info',
      'tone-warn',
      'tone-bad',
      'tone-neutral',
    ]);
    expect(['starting', 'ready', 'working', 'waiting', 'stopping', 'failed', 'exited'].map(liveHue)).toEqual(['', 'hue-ok', 'hue-info', 'hue-warn', '', 'hue-bad', '']);
  });
});
