import { describe, expect, it } from 'vitest';
import { attempt } from './attempt';

describe('attempt', () => {
  it('is busy while the action runs, then clears the last error and resolves true', async () => {
    const s = { busy: false, error: 'the last one failed' };
    let seen: { busy: boolean; error: string } | null = null;
    const ok = await attempt(s, async () => {
      seen = { ...s };
    });
    expect(ok).toBe(true);
    expect(seen).toEqual({ busy: true, error: '' });
    expect(s).toEqual({ busy: false, error: '' });
  });

  it('keeps the failure in words and resolves false', async () => {
    const s = { busy: false, error: '' };
    expect(await attempt(s, () => Promise.reject(new Error('the disk is full')))).toBe(false);
    expect(s.busy).toBe(false);
    expect(s.error).toContain('the disk is full');
  });

  it('does not run a second action while one is under way', async () => {
    const s = { busy: false, error: '' };
    let release!: () => void;
    const first = attempt(s, () => new Promise<void>((r) => (release = r)));
    let ran = false;
    expect(
      await attempt(s, async () => {
        ran = true;
      }),
    ).toBe(false);
    expect(ran).toBe(false);
    release();
    expect(await first).toBe(true);
  });
});
