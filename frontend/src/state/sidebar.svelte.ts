// Whether the sidebar (live sessions and history) is shown: toggled by its button in the top bar
// and by Ctrl+B, and remembered between runs in the page's localStorage under SIDEBAR_KEY
// ("closed" when hidden; shown when absent or unreadable, as on a first run).

export const SIDEBAR_KEY = 'agentdesk.sidebar';

/** The part of Storage the store uses (tests pass a stand-in; a storage that throws is ignored). */
export type SidebarStorage = Pick<Storage, 'getItem' | 'setItem'>;

function defaultStorage(): SidebarStorage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage refused (a sandboxed page): the sidebar is just not remembered
  }
}

export class SidebarStore {
  /** The sidebar is shown. */
  open = $state(true);
  readonly #storage: SidebarStorage | null;

  constructor(storage: SidebarStorage | null = defaultStorage()) {
    this.#storage = storage;
    try {
      this.open = storage?.getItem(SIDEBAR_KEY) !== 'closed';
    } catch {
      this.open = true;
    }
  }

  /** Shows the sidebar if hidden, else hides it, and remembers it. */
  toggle = (): void => {
    this.open = !this.open;
    try {
      this.#storage?.setItem(SIDEBAR_KEY, this.open ? 'open' : 'closed');
    } catch {
      // not remembered (a full or refused storage); the toggle itself worked
    }
  };
}
