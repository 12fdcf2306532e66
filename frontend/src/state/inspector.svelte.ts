// The protocol inspector's store: whether the panel is open, which session it shows, and that
// session's journal (Messages(sessionId)) read into rows. Only the last `limit` rows are rendered;
// showEarlier() reveals another page.
import * as api from '../lib/api';
import { journalRows, type JournalRow } from '../lib/journal';
import type { JournalLine } from '../lib/protocol';

/** Rows rendered at first, and added by each "show earlier". */
export const INSPECTOR_PAGE = 500;

export interface InspectorStoreDeps {
  messages?: (sessionId: string) => Promise<JournalLine[]>;
  onError?: (message: string) => void;
}

export class InspectorStore {
  open = $state(false);
  /** The session whose journal is (being) shown. */
  sessionId = $state<string | null>(null);
  rows = $state.raw<JournalRow[]>([]);
  loading = $state(false);
  /** How many of the last rows are rendered. */
  limit = $state(INSPECTOR_PAGE);

  readonly #messages: (sessionId: string) => Promise<JournalLine[]>;
  readonly #onError: (message: string) => void;
  #request = 0;

  constructor(deps: InspectorStoreDeps = {}) {
    this.#messages = deps.messages ?? api.Messages;
    this.#onError = deps.onError ?? (() => {});
  }

  /** The rows to render: the last `limit` ones. */
  get visible(): JournalRow[] {
    const rows = this.rows;
    return rows.length > this.limit ? rows.slice(rows.length - this.limit) : rows;
  }

  /** How many earlier rows are not rendered. */
  get hidden(): number {
    return Math.max(0, this.rows.length - this.limit);
  }

  /** Opens the panel on `sessionId` and loads its journal. */
  show(sessionId: string): Promise<void> {
    this.open = true;
    return this.load(sessionId);
  }

  hide(): void {
    this.open = false;
    this.#request++;
    this.loading = false;
  }

  toggle(sessionId: string | null): Promise<void> {
    if (this.open || !sessionId) {
      this.hide();
      return Promise.resolve();
    }
    return this.show(sessionId);
  }

  /** Loads the journal of `sessionId` (another session starts from an empty list). */
  async load(sessionId: string): Promise<void> {
    if (sessionId !== this.sessionId) {
      this.sessionId = sessionId;
      this.rows = [];
      this.limit = INSPECTOR_PAGE;
    }
    const req = ++this.#request;
    this.loading = true;
    try {
      const lines = await this.#messages(sessionId);
      if (req !== this.#request) return;
      this.rows = journalRows(lines);
    } catch (err) {
      if (req === this.#request) this.#onError(api.errorMessage(err));
    } finally {
      if (req === this.#request) this.loading = false;
    }
  }

  /** Reloads the shown session's journal (no-op while closed). */
  refresh(): Promise<void> {
    if (!this.open || !this.sessionId) return Promise.resolve();
    return this.load(this.sessionId);
  }

  showEarlier(): void {
    this.limit = Math.min(this.rows.length, this.limit) + INSPECTOR_PAGE;
  }
}
