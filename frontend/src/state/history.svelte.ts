// The history sidebar's store: the list (ListHistory(query), search debounced) and the saved
// session currently opened in the transcript area (read-only).
import * as api from '../lib/api';
import { realClock, type Clock } from '../lib/clock';
import type { HistoryItem, Snapshot } from '../lib/protocol';
import { fromSnapshot, type TranscriptState } from './transcript';

export const SEARCH_DEBOUNCE_MS = 200;

export interface HistoryStoreDeps {
  listHistory?: (query: string) => Promise<HistoryItem[]>;
  openHistory?: (id: string) => Promise<Snapshot>;
  clock?: Clock;
  onError?: (message: string) => void;
}

export class HistoryStore {
  items = $state.raw<HistoryItem[]>([]);
  query = $state('');
  loading = $state(false);
  /** The saved session shown read-only, or null when the live view is shown. */
  saved = $state.raw<TranscriptState | null>(null);
  /** Id of the item being opened or shown (highlighted in the list). */
  selectedId = $state<string | null>(null);

  readonly #list: (query: string) => Promise<HistoryItem[]>;
  readonly #open: (id: string) => Promise<Snapshot>;
  readonly #clock: Clock;
  readonly #onError: (message: string) => void;
  #cancelDebounce: (() => void) | null = null;
  #request = 0;
  #openRequest = 0;

  constructor(deps: HistoryStoreDeps = {}) {
    this.#list = deps.listHistory ?? api.ListHistory;
    this.#open = deps.openHistory ?? api.OpenHistory;
    this.#clock = deps.clock ?? realClock;
    this.#onError = deps.onError ?? (() => {});
  }

  /** Reloads the list for the current query now. Later calls win over earlier slow ones. */
  async refresh(): Promise<void> {
    const req = ++this.#request;
    this.loading = true;
    try {
      const items = await this.#list(this.query.trim());
      if (req === this.#request) this.items = items ?? [];
    } catch (err) {
      if (req === this.#request) this.#onError(api.errorMessage(err));
    } finally {
      if (req === this.#request) this.loading = false;
    }
  }

  /** Sets the search text; the list reloads SEARCH_DEBOUNCE_MS after the last keystroke. */
  search(query: string): void {
    this.query = query;
    this.#cancelDebounce?.();
    this.#cancelDebounce = this.#clock.setTimeout(() => {
      this.#cancelDebounce = null;
      void this.refresh();
    }, SEARCH_DEBOUNCE_MS);
  }

  /** Opens a saved session read-only. */
  async open(id: string): Promise<void> {
    const req = ++this.#openRequest;
    this.selectedId = id;
    try {
      const snap = await this.#open(id);
      if (req !== this.#openRequest) return;
      this.saved = fromSnapshot(snap);
    } catch (err) {
      if (req !== this.#openRequest) return;
      this.selectedId = this.saved?.sessionId ?? null;
      this.#onError(api.errorMessage(err));
    }
  }

  /** Back to the live session. */
  close(): void {
    this.#openRequest++;
    this.saved = null;
    this.selectedId = null;
  }

  dispose(): void {
    this.#cancelDebounce?.();
    this.#cancelDebounce = null;
  }
}
