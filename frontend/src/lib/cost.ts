// What a session has cost so far. ACP's usage_update reports `cost` as the running total of the
// agent's own session, so a session of ours that went through several agent sessions
// (continued after a restart, reopened from the history) adds up the last report of each: the
// boundary entries mark where a new agent session began.

import type { Entry, Usage } from './protocol';

type Cost = NonNullable<Usage['cost']>;

/**
 * Tallies cost over a transcript that only grows at its end (entries may change in place).
 * feed() is incremental: it reads only the entries added since the last call, so a long
 * transcript costs nothing per new chunk.
 */
export class CostTally {
  #scanned = 0;
  #closed: Cost | null = null; // the agent sessions before the last boundary
  #lastUsage = -1; // index of the current agent session's last usage entry
  #mixed = false; // the agent sessions reported different currencies

  /** Reads entries[scanned…] and returns the total so far, or null when nothing was reported. */
  feed(entries: readonly Entry[]): Cost | null {
    if (entries.length < this.#scanned) this.reset();
    for (let i = this.#scanned; i < entries.length; i++) {
      const e = entries[i];
      if (e.kind === 'usage') this.#lastUsage = i;
      else if (e.kind === 'boundary') {
        this.#closed = this.#add(this.#closed, this.#costAt(entries, this.#lastUsage));
        this.#lastUsage = -1;
      }
    }
    this.#scanned = entries.length;
    const open = this.#costAt(entries, this.#lastUsage); // read fresh: usage entries are upserted in place
    if (this.#mixed) return open;
    return this.#add(this.#closed, open);
  }

  reset(): void {
    this.#scanned = 0;
    this.#closed = null;
    this.#lastUsage = -1;
    this.#mixed = false;
  }

  #costAt(entries: readonly Entry[], i: number): Cost | null {
    const c = i >= 0 ? entries[i]?.usage?.cost : null;
    return c && Number.isFinite(c.amount) ? c : null;
  }

  #add(a: Cost | null, b: Cost | null): Cost | null {
    if (!a || !b) return a ?? b;
    if (a.currency !== b.currency) {
      this.#mixed = true; // a sum of two currencies means nothing: show the latest alone
      return b;
    }
    return { amount: a.amount + b.amount, currency: a.currency };
  }
}
