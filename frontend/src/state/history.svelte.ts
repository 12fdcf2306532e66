// The history sidebar's store: the list (ListHistory(query), search debounced), the saved
// session currently opened in the transcript area (read-only), and the item actions (rename,
// delete, copy as Markdown, save to a file as Markdown or JSON).
import * as api from '../lib/api';
import { realClock, type Clock } from '../lib/clock';
import { copyText } from '../lib/events';
import type { HistoryItem, HistoryPart, Snapshot } from '../lib/protocol';
import { fromSnapshot, type TranscriptState } from './transcript';

export const SEARCH_DEBOUNCE_MS = 200;

/**
 * Opening a saved session reads its last this many entries first (what the transcript shows
 * first, at its end). More than the transcript renders whole (its SMALL), so the first paint is
 * a windowed screenful however long the session.
 */
export const TAIL_ENTRIES = 200;
/** The most sessions a list or search returns (app.go's historyListLimit): the newest, or the best matches. */
export const LIST_LIMIT = 200;
/** Then it reads the earlier entries this many at a time, each part a short task for the page. */
export const PART_ENTRIES = 2_000;

/** What a saved session can be saved to a file as: its export, or its diagnostic bundle for a bug report. */
export type SaveFormat = 'md' | 'json' | 'diagnostics';

export interface HistoryStoreDeps {
  listHistory?: (query: string) => Promise<HistoryItem[]>;
  openHistoryPart?: (id: string, from: number, limit: number) => Promise<HistoryPart>;
  renameHistory?: (id: string, title: string) => Promise<void>;
  deleteHistory?: (id: string) => Promise<void>;
  exportHistory?: (id: string, format: 'md' | 'json') => Promise<string>;
  saveHistoryExport?: (id: string, format: SaveFormat) => Promise<string>;
  copy?: (text: string) => Promise<void>;
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
  readonly #openPart: (id: string, from: number, limit: number) => Promise<HistoryPart>;
  readonly #rename: (id: string, title: string) => Promise<void>;
  readonly #delete: (id: string) => Promise<void>;
  readonly #export: (id: string, format: 'md' | 'json') => Promise<string>;
  readonly #save: (id: string, format: SaveFormat) => Promise<string>;
  readonly #copy: (text: string) => Promise<void>;
  readonly #clock: Clock;
  readonly #onError: (message: string) => void;
  #cancelDebounce: (() => void) | null = null;
  #request = 0;
  #openRequest = 0;

  constructor(deps: HistoryStoreDeps = {}) {
    this.#list = deps.listHistory ?? api.ListHistory;
    this.#openPart = deps.openHistoryPart ?? api.OpenHistoryPart;
    this.#rename = deps.renameHistory ?? api.RenameHistory;
    this.#delete = deps.deleteHistory ?? api.DeleteHistory;
    this.#export = deps.exportHistory ?? api.ExportHistory;
    this.#save = deps.saveHistoryExport ?? api.SaveHistoryExport;
    this.#copy = deps.copy ?? copyText;
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

  /**
   * Opens a saved session read-only: its last TAIL_ENTRIES entries first, then the earlier ones
   * PART_ENTRIES at a time, each added in front (the transcript keeps its rows by entry id).
   */
  async open(id: string): Promise<void> {
    const req = ++this.#openRequest;
    this.selectedId = id;
    try {
      let part = await this.#openPart(id, -1, TAIL_ENTRIES);
      if (req !== this.#openRequest) return;
      let snap = part.snapshot;
      this.saved = fromSnapshot(snap);
      while (part.from > 0) {
        const from = Math.max(0, part.from - PART_ENTRIES);
        part = await this.#openPart(id, from, part.from - from);
        if (req !== this.#openRequest) return;
        snap = prepend(part.snapshot, snap);
        this.saved = fromSnapshot(snap);
      }
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

  /** Renames a saved session; resolves false (error reported) when it failed. */
  async rename(id: string, title: string): Promise<boolean> {
    const t = title.trim();
    if (!t) return false;
    try {
      await this.#rename(id, t);
    } catch (err) {
      this.#onError(api.errorMessage(err));
      return false;
    }
    this.items = this.items.map((it) => (it.id === id ? { ...it, title: t } : it));
    if (this.saved?.sessionId === id) this.saved = { ...this.saved, title: t };
    void this.refresh();
    return true;
  }

  /**
   * Deletes a saved session. A shown saved copy closes; a live session keeps running (only its
   * saved copy goes). Resolves false (error reported) when it failed.
   */
  async remove(id: string): Promise<boolean> {
    try {
      await this.#delete(id);
    } catch (err) {
      this.#onError(api.errorMessage(err));
      return false;
    }
    this.#request++; // a list read in flight may still hold the item
    this.loading = false;
    this.items = this.items.filter((it) => it.id !== id);
    if (this.saved?.sessionId === id || this.selectedId === id) this.close();
    void this.refresh();
    return true;
  }

  /** Copies a saved session as Markdown to the clipboard; resolves false (error reported) on failure. */
  async copyMarkdown(id: string): Promise<boolean> {
    try {
      const md = await this.#export(id, 'md');
      await this.#copy(md);
      return true;
    } catch (err) {
      this.#onError(api.errorMessage(err));
      return false;
    }
  }

  /**
   * Saves a saved session to a file the user picks in the system's save dialog. Resolves to the
   * path written, '' when the user cancelled, or null (error reported) when it failed.
   */
  async saveToFile(id: string, format: SaveFormat): Promise<string | null> {
    try {
      return (await this.#save(id, format)) ?? '';
    } catch (err) {
      this.#onError(api.errorMessage(err));
      return null;
    }
  }

  dispose(): void {
    this.#cancelDebounce?.();
    this.#cancelDebounce = null;
  }
}

/** `earlier`'s entries in front of `later`'s, with the turns of both (the later part's win). */
function prepend(earlier: Snapshot, later: Snapshot): Snapshot {
  const turns = new Map((earlier.turns ?? []).map((t) => [t.turn, t]));
  for (const t of later.turns ?? []) turns.set(t.turn, t);
  return { ...later, entries: [...(earlier.entries ?? []), ...(later.entries ?? [])], turns: [...turns.values()] };
}
