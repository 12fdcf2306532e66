// A per-frame time budget for work that may wait a frame or two: the first Markdown render of a
// transcript row (marked, then DOMPurify: 1-3 ms a row).
//
// Why: while an agent floods the transcript, each frame brings a screenful of new rows to the
// bottom, and rendering all their Markdown in that frame makes it long (and a row that the next
// frame pushes out of sight was rendered for nothing). With a budget, a frame renders rows until
// BUDGET_MS is spent; the rest show their plain text at once and get their Markdown later, in
// the order they asked, if they are still on screen. Later means: once a frame passes in which
// no new work asked to run. During a flood every frame brings new rows, so no frame spends
// anything on Markdown (measured: a few ms of Markdown per frame was enough to halve the frame
// rate of a 2-core machine streaming 20,000 chunks); when it calms, the rows on screen are
// rendered within the budget, frame by frame. A calm transcript renders within the budget and
// never shows the plain stage.
//
// Without frames (test clocks), everything runs at once: the budget never defers.
import type { Clock } from './clock';

/** Milliseconds of deferrable work per frame. */
export const BUDGET_MS = 8;

export class FrameBudget {
  readonly #clock: Clock;
  readonly #budget: number;
  #spent = 0;
  #armed = false;
  /** Work asked to run since the last frame began (tryRun or later). */
  #asked = false;
  #queue = new Set<() => void>();

  constructor(clock: Clock, budgetMs = BUDGET_MS) {
    this.#clock = clock;
    this.#budget = budgetMs;
  }

  /**
   * Runs `work` now and returns true when this frame still has budget (or there are no frames);
   * returns false without running it when the frame's budget is spent.
   */
  tryRun(work: () => void): boolean {
    if (!this.#clock.frame) {
      work();
      return true;
    }
    this.#asked = true;
    if (this.#spent >= this.#budget || this.#queue.size > 0) {
      this.#arm();
      return false;
    }
    this.#charge(work);
    return true;
  }

  /**
   * Runs `work` in a later frame, within that frame's budget, after the work queued before it,
   * once a frame has passed in which nothing new asked to run. Returns a function that takes it
   * back (a row that left the screen).
   */
  later(work: () => void): () => void {
    if (!this.#clock.frame) {
      work();
      return () => {};
    }
    this.#asked = true;
    this.#queue.add(work);
    this.#arm();
    return () => this.#queue.delete(work);
  }

  #charge(work: () => void): void {
    const t0 = this.#clock.now();
    try {
      work();
    } finally {
      this.#spent += this.#clock.now() - t0;
      this.#arm();
    }
  }

  /**
   * At the next frame the budget is full again. Queued work runs then, until the budget is
   * spent, unless new work asked to run during the frame before (a flood: wait for a calm one).
   */
  #arm(): void {
    if (this.#armed) return;
    this.#armed = true;
    this.#clock.frame!(() => {
      this.#armed = false;
      this.#spent = 0;
      const flooding = this.#asked;
      this.#asked = false;
      if (!flooding) {
        for (const work of this.#queue) {
          if (this.#spent >= this.#budget) break;
          this.#queue.delete(work);
          this.#charge(work);
        }
      }
      if (this.#queue.size > 0) this.#arm();
    });
  }
}

const budgets = new WeakMap<Clock, FrameBudget>();

/** The budget shared by everything on `clock` (one page, one budget). */
export function frameBudget(clock: Clock): FrameBudget {
  let b = budgets.get(clock);
  if (!b) budgets.set(clock, (b = new FrameBudget(clock)));
  return b;
}
