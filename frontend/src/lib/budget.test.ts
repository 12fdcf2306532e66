import { describe, expect, it } from 'vitest';
import { CALM_MS, FrameBudget } from './budget';
import { manualClock, type Clock } from './clock';

/**
 * A manual clock with 60 Hz frames: frame() queues, nextFrame() moves the time on by a frame
 * (16 ms) and runs what was queued; work moves it on by what it costs (advance).
 */
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
      clock.advance(16);
      const run = frames;
      frames = [];
      for (const fn of run) fn();
    },
    pending: () => frames.length,
  };
  return framed;
}

/** Frames until deferred work may run: none has asked for CALM_MS. */
function calmDown(clock: ReturnType<typeof framedClock>) {
  for (let waited = 0; waited < CALM_MS; waited += 16) clock.nextFrame();
}

describe('FrameBudget', () => {
  it('runs everything at once when the clock has no frames (tests, no rendering)', () => {
    const b = new FrameBudget(manualClock(), 8);
    const done: string[] = [];
    expect(b.tryRun(() => done.push('a'))).toBe(true);
    b.later(() => done.push('b'));
    expect(done).toEqual(['a', 'b']);
  });

  it('refuses work once a frame spent its budget, and runs deferred work in later calm frames, in order', () => {
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
    calmDown(clock); // a calm frame's fresh budget: c (6 ms), e (12 ms spent), then stop
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
    calmDown(clock); // calm: the backlog runs, two rows a frame (5 ms each, 8 ms budget)
    expect(done).toEqual([0, 1, 2, 3]);
    while (clock.pending() > 0) clock.nextFrame();
    expect(done).toHaveLength(20);
  });

  it('runs nothing at once in a flood that brings rows every other frame, as the engine flushes every 30 ms', () => {
    const clock = framedClock();
    const b = new FrameBudget(clock, 8);
    const atOnce: number[] = [];
    const later: number[] = [];
    let n = 0;
    let shown: Array<() => void> = []; // the queued renders of the rows on screen
    for (let frame = 0; frame < 20; frame++) {
      if (frame % 2 === 0) {
        // A screenful of new rows pushes the last one out of sight: their deferred renders go.
        for (const cancel of shown) cancel();
        shown = [];
        for (let r = 0; r < 4; r++) {
          const i = n++;
          if (b.tryRun(() => (atOnce.push(i), clock.advance(1)))) continue;
          shown.push(b.later(() => (later.push(i), clock.advance(1))));
        }
      }
      clock.nextFrame();
    }
    // The first two busy frames are within budget (a burst is not a flood); then nothing runs
    // at once, and nothing deferred runs before the flood ends.
    expect(atOnce).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(later).toEqual([]);
    calmDown(clock);
    expect(later).toEqual([36, 37, 38, 39]); // only the rows still on screen
  });

  it('renders at once the rows of an agent that adds one now and then', () => {
    const clock = framedClock();
    const b = new FrameBudget(clock, 8);
    let ran = 0;
    for (let i = 0; i < 10; i++) {
      expect(b.tryRun(() => (ran++, clock.advance(2)))).toBe(true);
      for (let f = 0; f < 12; f++) clock.nextFrame(); // about 200 ms between rows
    }
    expect(ran).toBe(10);
  });
});
