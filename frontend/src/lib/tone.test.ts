import { describe, expect, it } from 'vitest';
import { outcomeTone, toolStatusTone } from './tone';

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
});
