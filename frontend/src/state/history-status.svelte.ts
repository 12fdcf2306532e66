// Whether the history is being saved, for the status bar: what the Go side last said
// (api.HistoryStatus, then history:status events), the all-clear for a while after saving works
// again, and Retry.
import * as api from '../lib/api';
import { realClock, type Clock } from '../lib/clock';
import type { HistoryStatus } from '../lib/protocol';

/** How long the all-clear stays after saving works again. */
export const RECOVERED_MS = 8_000;

export interface HistoryStatusDeps {
  clock?: Clock;
  /** A failed Retry. */
  onError?: (message: string) => void;
  /** Saving works again: the copies may have brought back turns the history list missed. */
  onHealed?: () => void;
}

export class HistoryStatusStore {
  status = $state<HistoryStatus>({ saving: true });
  /** Saving started working again a moment ago (the bar shows the all-clear). */
  recovered = $state(false);
  /** A Retry is in flight. */
  retrying = $state(false);

  readonly #clock: Clock;
  readonly #onError: (message: string) => void;
  readonly #onHealed: () => void;
  #cancelRecovered = () => {};

  constructor(deps: HistoryStatusDeps = {}) {
    this.#clock = deps.clock ?? realClock;
    this.#onError = deps.onError ?? (() => {});
    this.#onHealed = deps.onHealed ?? (() => {});
  }

  /** Takes a new status (from the Go side or a Retry). */
  set = (next: HistoryStatus): void => {
    const healed = !this.status.saving && next.saving;
    this.status = next;
    if (healed) {
      this.#onHealed();
      this.recovered = true;
      this.#cancelRecovered();
      this.#cancelRecovered = this.#clock.setTimeout(() => (this.recovered = false), RECOVERED_MS);
    } else if (!next.saving) {
      this.recovered = false; // failing again: the bar says so instead
    }
  };

  /** Saves now (the bar's Retry); a failure goes to onError. One at a time. */
  async retry(): Promise<void> {
    if (this.retrying) return;
    this.retrying = true;
    try {
      this.set(await api.RetryHistory());
    } catch (err) {
      this.#onError(api.errorMessage(err));
    } finally {
      this.retrying = false;
    }
  }

  /** Hides the all-clear. */
  dismiss(): void {
    this.recovered = false;
  }

  /** Stops the all-clear's timer (the page goes away). */
  dispose(): void {
    this.#cancelRecovered();
  }
}
