// The attachment file picker's state: the session folder's files matching a query, opened two
// ways. The attach button opens it with a search field of its own, which takes the keyboard; '@'
// typed at the start of a word opens it filtered by what follows, and the prompt box keeps the
// keyboard. Up/Down move, Enter or Tab attach (through `attach`; a mention's '@text' is then taken
// out of the prompt), Esc closes it (a mention stays closed while typed on). Only the latest
// query's answer is shown. Create it while a component initialises (it runs effects).
import { mentionAt, removeMention } from '../../lib/attachments';
import type { ListKeys } from '../../lib/listnav';
import type { FolderFile } from '../../lib/protocol';

export interface FileSource {
  text: () => string;
  /** Replaces the prompt's text and puts the caret at `caret`. */
  setText: (text: string, caret: number) => void;
  textarea: () => HTMLTextAreaElement | undefined;
  /** Files can be attached now (a live session that has not ended, a file lister). */
  canAttach: () => boolean;
  /** The session folder's files matching a query, best first; rejects with the words to show. */
  listFiles: () => ((query: string) => Promise<FolderFile[]>) | undefined;
  /** The person picked a file. */
  attach: (file: FolderFile) => void;
  /**
   * Asks the person for a file outside the session folder (the system's open dialog): the file,
   * or null when they cancelled; undefined when the window cannot ask.
   */
  chooseElsewhere?: () => (() => Promise<FolderFile | null>) | undefined;
}

export class FileFinder {
  /** The start of an '@' mention closed with Esc (it stays closed while typed on). */
  #mentionDismissed = $state<number | null>(null);
  #fetches = 0;
  readonly #src: FileSource;

  /** The caret in the prompt (a mention is the word it is in). */
  caret = $state(0);
  /** Opened by the attach button. */
  buttonOpen = $state(false);
  /** The attach button's search field. */
  search = $state('');
  files = $state<FolderFile[]>([]);
  loading = $state(false);
  error = $state('');
  /** The highlighted file. */
  selected = $state(0);

  readonly mention = $derived.by(() => (this.#src.canAttach() && !this.buttonOpen ? mentionAt(this.#src.text(), this.caret) : null));
  readonly mentionOpen = $derived(this.mention !== null && this.#mentionDismissed !== this.mention.start);
  readonly open = $derived(this.buttonOpen || this.mentionOpen);

  constructor(src: FileSource) {
    this.#src = src;
    $effect.pre(() => {
      if (this.mention === null) this.#mentionDismissed = null;
    });
    $effect(() => {
      const q = this.buttonOpen ? this.search : this.mentionOpen && this.mention ? this.mention.query : null;
      const list = this.#src.listFiles();
      if (q !== null && list) this.#fetch(list, q);
    });
  }

  /** Notes where the caret is (on input, key up and click in the prompt). */
  trackCaret = (): void => {
    this.caret = this.#src.textarea()?.selectionStart ?? this.#src.text().length;
  };

  /** The attach button: opens the picker with its search field, or closes it. */
  toggle(): void {
    if (!this.#src.canAttach()) return;
    if (this.buttonOpen) {
      this.close();
      return;
    }
    this.search = '';
    this.buttonOpen = true;
  }

  /** Closes the picker; the button's gives the focus back to the prompt unless `refocus` is false. */
  close(refocus = true): void {
    if (this.buttonOpen) {
      this.buttonOpen = false;
      if (refocus) this.#src.textarea()?.focus({ preventScroll: true });
    } else if (this.mention) {
      this.#mentionDismissed = this.mention.start;
    }
  }

  /** Attaches `file` and closes the picker; a mention's '@text' leaves the prompt. */
  pick(file: FolderFile): void {
    this.#src.attach(file);
    const el = this.#src.textarea();
    if (!this.buttonOpen && this.mention) {
      const next = removeMention(this.#src.text(), this.mention, this.caret);
      this.#src.setText(next.text, next.caret);
      this.caret = next.caret;
    }
    this.buttonOpen = false;
    el?.focus({ preventScroll: true });
  }

  /** The picker can offer a file from outside the session folder. */
  get canChooseElsewhere(): boolean {
    return !!this.#src.chooseElsewhere?.();
  }

  /** Closes the picker and asks for a file outside the session folder; attaches the one chosen. */
  async elsewhere(): Promise<void> {
    const choose = this.#src.chooseElsewhere?.();
    if (!choose) return;
    this.close(false);
    const file = await choose();
    if (file) this.#src.attach(file);
    this.#src.textarea()?.focus({ preventScroll: true });
  }

  /** The picker for listKeys on the search field (mention: false) or the prompt box (true). */
  keys(mention: boolean): ListKeys {
    const n = this.files.length;
    return {
      open: mention ? this.mentionOpen : this.buttonOpen,
      count: n,
      index: this.selected,
      select: (i) => (this.selected = i),
      pick: (key) => {
        if (n) this.pick(this.files[Math.min(this.selected, n - 1)]);
        else if (!this.buttonOpen && !this.loading) return false; // nothing matches '@text': send it as typed
        else if (key === 'Tab') return false;
        return true;
      },
      close: () => this.close(),
    };
  }

  #fetch(list: (query: string) => Promise<FolderFile[]>, query: string): void {
    const mine = ++this.#fetches;
    this.loading = true;
    list(query).then(
      (files) => {
        if (mine !== this.#fetches) return; // a later query answers instead
        this.files = files;
        this.error = '';
        this.loading = false;
        this.selected = 0;
      },
      (err: unknown) => {
        if (mine !== this.#fetches) return;
        this.files = [];
        this.error = err instanceof Error ? err.message : String(err);
        this.loading = false;
      },
    );
  }
}

