import { describe, expect, it } from 'vitest';
import { FrameBudget } from './budget';
import { manualClock, type Clock } from './clock';

/** A manual clock with frames: frame() queues, nextFrame() runs what was queued. */
function framedClock() {
  const clock = manualClock();
  let frames: Array<() => void> = [];
  const framed: Clock & { advance(ms: number): void; nextFrame(): void; pending(): number } = {
    ...clock,
    advance: clock.advance,
    frame(fn) {
      frames.push(fn);
      return () => (frames = frames.filter((f) => f !== fn));
    },
    nextFrame() {
      const run = frames;
      frames = [];
      for (const fn of run) fn();
    },
    pending: () => frames.length,
  };
  return framed;
}

describe('FrameBudget', () => {
  it('runs everything at once when the clock has no frames (tests, no rendering)', () => {
    const b = new FrameBudget(manualClock(), 8);
    const done: string[] = [];
    expect(b.tryRun(() => done.push('a'))).toBe(true);
    b.later(() => done.push('b'));
    expect(done).toEqual(['a', 'b']);
  });

  it('refuses work once a frame spent its budget, and runs deferred work in later frames, in order', () => {
    const clock = framedClock();
    const b = new FrameBudget(clock, 8);
    const done: string[] = [];
    const costly = (name: string, ms: number) => () => {
      done.push(name);
      clock.advance(ms);
    };
    expect(b.tryRun(costly('a', 5))).toBe(true);
    expect(b.tryRun(costly('b', 5))).toBe(true); // 5 ms spent < 8: still allowed
    expect(b.tryRun(costly('c', 5))).toBe(false); // 10 ms spent: refused, not run
    const cancelD = b.later(costly('d', 1));
    b.later(costly('c', 6));
    b.later(costly('e', 6));
    b.later(costly('f', 6));
    cancelD(); // its row left the screen
    expect(b.tryRun(costly('g', 1))).toBe(false); // deferred work goes first
    expect(done).toEqual(['a', 'b']);

    clock.nextFrame(); // the frame before asked for work: nothing deferred runs yet
    expect(done).toEqual(['a', 'b']);
    clock.nextFrame(); // a calm frame's fresh budget: c (6 ms), e (12 ms spent), then stop
    expect(done).toEqual(['a', 'b', 'c', 'e']);
    clock.nextFrame();
    expect(done).toEqual(['a', 'b', 'c', 'e', 'f']);
    clock.nextFrame();
    expect(b.tryRun(costly('h', 1))).toBe(true);
    expect(done.at(-1)).toBe('h');
  });

  it('spends nothing on deferred work while every frame brings new work (a flood), then catches up', () => {
    const clock = framedClock();
    const b = new FrameBudget(clock, 8);
    const done: number[] = [];
    let n = 0;
    const row = () => {
      const i = n++;
      if (!b.tryRun(() => (done.push(i), clock.advance(5)))) b.later(() => (done.push(i), clock.advance(5)));
    };
    for (let frame = 0; frame < 5; frame++) {
      for (let r = 0; r < 4; r++) row(); // four new rows a frame
      clock.nextFrame();
    }
    expect(done).toEqual([0, 1]); // only the first frame's budget: the rest waited
    clock.nextFrame(); // calm: the backlog runs, two rows a frame (5 ms each, 8 ms budget)
    expect(done).toEqual([0, 1, 2, 3]);
    while (clock.pending() > 0) clock.nextFrame();
    expect(done).toHaveLength(20);
  });
});
