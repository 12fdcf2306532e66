// A per-frame time budget for work that may wait a frame or two: the first Markdown render of a
// transcript row (marked, then DOMPurify: 1-3 ms a row).
//
// Why: while an agent floods the transcript, each frame brings a screenful of new rows to the
// bottom, and rendering all their Markdown in that frame makes it long (and a row that the next
// frame pushes out of sight was rendered for nothing). With a budget, a frame renders rows until
// BUDGET_MS is spent; the rest show their plain text at once and get their Markdown later, in
// the order they asked, if they are still on screen.
//
// A flood is told by time, not by frame: FLOOD_FRAMES frames that asked for work within
// FLOOD_MS. (The engine flushes its events every ~30 ms, so in a flood only every other frame
// brings rows; a rule of "every frame" saw each frame between two flushes as calm, and spent
// 8 ms of Markdown a frame all through a flood: measured, a fifth of the page's main thread.)
// During a flood nothing runs at once, and deferred work waits for calm: no frame has asked for
// CALM_MS. Then the rows on screen are rendered within the budget, frame by frame. A calm
// transcript (an entry now and then, a tool call or two) renders within the budget and never
// shows the plain stage.
//
// Without frames (test clocks), everything runs at once: the budget never defers.
import type { Clock } from './clock';

/** Milliseconds of deferrable work per frame. */
export const BUDGET_MS = 8;

/** FLOOD_FRAMES frames that asked for work within FLOOD_MS make a flood... */
export const FLOOD_FRAMES = 2;
export const FLOOD_MS = 150;
/** ...which ends once no frame has asked for this long. */
export const CALM_MS = 50;

export class FrameBudget {
  readonly #clock: Clock;
  readonly #budget: number;
  #spent = 0;
  #armed = false;
  /** Work asked to run since the last frame began (tryRun or later). */
  #asked = false;
  /** When the latest FLOOD_FRAMES frames that asked for work began (clock.now()), oldest first. */
  #busy: number[] = [];
  #queue = new Set<() => void>();

  constructor(clock: Clock, budgetMs = BUDGET_MS) {
    this.#clock = clock;
    this.#budget = budgetMs;
  }

  /**
   * Runs `work` now and returns true when this frame still has budget (or there are no frames);
   * returns false without running it when the frame's budget is spent, work is queued before
   * it, or a flood is on.
   */
  tryRun(work: () => void): boolean {
    if (!this.#clock.frame) {
      work();
      return true;
    }
    this.#asked = true;
    if (this.#spent >= this.#budget || this.#queue.size > 0 || this.#flooding()) {
      this.#arm();
      return false;
    }
    this.#charge(work);
    return true;
  }

  /**
   * Runs `work` in a later frame, within that frame's budget, after the work queued before it,
   * once it is calm: no frame has asked for work for CALM_MS. Returns a function that takes it
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

  /** True while frames keep asking for work: FLOOD_FRAMES of them within FLOOD_MS. */
  #flooding(): boolean {
    const b = this.#busy;
    return b.length === FLOOD_FRAMES && this.#clock.now() - b[0] <= FLOOD_MS;
  }

  /**
   * At the next frame the budget is full again. Queued work runs then, until the budget is
   * spent, once no frame has asked for work for CALM_MS. It keeps looking at each frame while
   * work is queued or a flood may be on.
   */
  #arm(): void {
    if (this.#armed) return;
    this.#armed = true;
    this.#clock.frame!(() => {
      this.#armed = false;
      this.#spent = 0;
      const now = this.#clock.now();
      if (this.#asked) {
        this.#busy.push(now);
        if (this.#busy.length > FLOOD_FRAMES) this.#busy.shift();
      }
      this.#asked = false;
      const last = this.#busy.at(-1);
      const calm = last === undefined || now - last >= CALM_MS;
      if (calm) {
        this.#busy = [];
        for (const work of this.#queue) {
          if (this.#spent >= this.#budget) break;
          this.#queue.delete(work);
          this.#charge(work);
        }
      }
      if (this.#queue.size > 0 || !calm) this.#arm();
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
