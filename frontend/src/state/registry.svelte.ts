// The Registry view's state (issue 19): the ACP registry's agents as the Go side lists them
// (from the network, the cached copy or the snapshot shipped in the binary), what is installed of
// each, and the installs, rollbacks and uninstalls under way with their progress and errors.
import * as api from '../lib/api';
import type { RegistryItem, RegistryListing } from '../lib/api';
import { onRegistryProgress, type RegistryProgress } from '../lib/events';

/** What is being done to an agent: its buttons wait meanwhile. */
export type RegistryAction = 'install' | 'rollback' | 'uninstall';

export interface RegistryStoreDeps {
  /** The installed agents changed: the picker's list is read again. */
  onChanged?: () => void;
}

/** The Registry view's state. Call listen() while the view is shown (its progress events). */
export class RegistryStore {
  listing = $state.raw<RegistryListing | null>(null);
  loading = $state(false);
  /** Why the registry could not be listed at all (the Go side falls back to a snapshot, so rarely). */
  error = $state('');
  /** The action under way, by registry id. */
  busy = $state<Record<string, RegistryAction>>({});
  /** The step of the install under way, by registry id ("Downloading goose.tar.bz2"). */
  progress = $state<Record<string, string>>({});
  /** The last failure, by registry id, shown on its row until the next try. */
  failed = $state<Record<string, string>>({});
  readonly #onChanged: () => void;

  constructor(deps: RegistryStoreDeps = {}) {
    this.#onChanged = deps.onChanged ?? (() => {});
  }

  /** Follows the installs' progress; returns the remover. */
  listen(): () => void {
    return onRegistryProgress((p: RegistryProgress) => {
      if (this.busy[p.id]) this.progress = { ...this.progress, [p.id]: p.step };
    });
  }

  /** Reads the registry and what is installed (it may wait on the network). */
  load = async (): Promise<void> => {
    this.loading = true;
    try {
      this.listing = await api.ListRegistry();
      this.error = '';
    } catch (err) {
      this.error = api.errorMessage(err);
    } finally {
      this.loading = false;
    }
  };

  /** Installs the version the registry names (an update when an older one is installed). */
  install = (id: string): Promise<void> => this.#run(id, 'install', () => api.InstallRegistryAgent(id));

  /** Goes back to the version installed before. */
  rollback = (id: string): Promise<void> => this.#run(id, 'rollback', () => api.RollbackRegistryAgent(id));

  /** Removes every installed version. */
  uninstall = (id: string): Promise<void> =>
    this.#run(id, 'uninstall', async () => {
      await api.UninstallRegistryAgent(id);
      const was = this.listing?.items.find((i) => i.id === id);
      return was ? { ...was, installed: '', previous: '', problem: '' } : null;
    });

  async #run(id: string, action: RegistryAction, op: () => Promise<RegistryItem | null>): Promise<void> {
    if (this.busy[id]) return;
    this.busy = { ...this.busy, [id]: action };
    this.progress = { ...this.progress, [id]: action === 'install' ? 'Starting' : '' };
    const { [id]: _, ...rest } = this.failed;
    this.failed = rest;
    try {
      const item = await op();
      if (item && this.listing) {
        const items = this.listing.items.map((i) => (i.id === id ? { ...i, ...item, name: item.name || i.name } : i));
        this.listing = { ...this.listing, items };
      }
      this.#onChanged();
    } catch (err) {
      this.failed = { ...this.failed, [id]: api.errorMessage(err) };
    } finally {
      const { [id]: _b, ...busy } = this.busy;
      this.busy = busy;
      const { [id]: _p, ...progress } = this.progress;
      this.progress = progress;
    }
  }
}
