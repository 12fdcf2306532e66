// An injectable clock so timers (grace period, elapsed time, debounce, Markdown throttle, frames) can be
// driven by tests without waiting. Components read it from context (see App.svelte).
import { getContext, setContext } from 'svelte';

export interface Clock {
  /** Milliseconds, like Date.now(). */
  now(): number;
  /** Calls fn once after ms; returns a cancel function. */
  setTimeout(fn: () => void, ms: number): () => void;
  /** Calls fn every ms; returns a cancel function. */
  setInterval(fn: () => void, ms: number): () => void;
  /**
   * Calls fn once before the next repaint (requestAnimationFrame); returns a cancel function.
   * Optional: without it, work that would wait for the frame is done at once (test clocks).
   */
  frame?(fn: () => void): () => void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const id = globalThis.setTimeout(fn, ms);
    return () => globalThis.clearTimeout(id);
  },
  setInterval(fn, ms) {
    const id = globalThis.setInterval(fn, ms);
    return () => globalThis.clearInterval(id);
  },
  frame(fn) {
    if (typeof globalThis.requestAnimationFrame !== 'function') {
      const id = globalThis.setTimeout(fn, 16);
      return () => globalThis.clearTimeout(id);
    }
    const id = globalThis.requestAnimationFrame(() => fn());
    return () => globalThis.cancelAnimationFrame(id);
  },
};

/** A clock that only moves when told to; for tests. */
export interface ManualClock extends Clock {
  advance(ms: number): void;
}

export function manualClock(start = 1_000_000): ManualClock {
  let t = start;
  let nextId = 1;
  const timers = new Map<number, { at: number; every: number; fn: () => void }>();
  const add = (fn: () => void, ms: number, every: number) => {
    const id = nextId++;
    timers.set(id, { at: t + Math.max(0, ms), every, fn });
    return () => {
      timers.delete(id);
    };
  };
  return {
    now: () => t,
    setTimeout: (fn, ms) => add(fn, ms, 0),
    setInterval: (fn, ms) => add(fn, ms, Math.max(1, ms)),
    advance(ms: number) {
      const end = t + ms;
      for (;;) {
        let dueId = -1;
        let due: { at: number; every: number; fn: () => void } | undefined;
        for (const [id, timer] of timers) {
          if (timer.at <= end && (!due || timer.at < due.at)) {
            due = timer;
            dueId = id;
          }
        }
        if (!due) break;
        t = Math.max(t, due.at);
        if (due.every > 0) due.at += due.every;
        else timers.delete(dueId);
        due.fn();
      }
      t = end;
    },
  };
}

const KEY = Symbol('agentdesk.clock');

export function provideClock(clock: Clock): void {
  setContext(KEY, clock);
}

/** The clock provided by an ancestor, or the real one. Call during component initialisation. */
export function useClock(): Clock {
  return getContext<Clock | undefined>(KEY) ?? realClock;
}
