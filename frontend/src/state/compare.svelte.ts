// One task to several agents at once (issue 33): the "Give to several agents…" dialog (which
// agents, the prompt, the check command), the start (Sessions.StartComparison: each session
// starts in a worktree of its own and shows in the Live group), and the comparison shown side by
// side (History.Comparison: every figure computed in Go), read again while a turn or a check of
// it runs, with a follow-up prompt to all of its live sessions.
import * as api from '../lib/api';
import type { hub } from '../../wailsjs/go/models';
import type { SessionInfo } from '../lib/protocol';

export type ComparisonView = hub.ComparisonView;

export interface CompareDeps {
  onError: (message: string) => void;
  /** A session of the comparison was started: add it to the Live group (not shown). */
  onStarted: (info: SessionInfo) => Promise<void>;
}

/** The states of a row that will change without the person: read the comparison again. */
const moving = new Set(['starting', 'running', 'cancelling']);

export class CompareStore {
  /** The dialog is open. */
  asking = $state(false);
  /** The agents picked, in the order picked (one may be picked twice). */
  picked = $state<string[]>([]);
  prompt = $state('');
  check = $state('');
  starting = $state(false);
  error = $state('');
  /** The comparison shown, or null. */
  view = $state.raw<ComparisonView | null>(null);
  readonly #deps: CompareDeps;

  constructor(deps: CompareDeps) {
    this.#deps = deps;
  }

  /** Some row still moves (a turn or a check runs): the view reads it again. */
  get live(): boolean {
    return !!this.view?.rows.some((r) => r.checking || moving.has(r.state));
  }

  open(): void {
    this.asking = true;
    this.error = '';
  }

  close(): void {
    if (!this.starting) this.asking = false;
  }

  /** Picks agent `id` once more, or drops it when `on` is false. */
  toggle(id: string, on: boolean): void {
    this.picked = on ? [...this.picked, id] : this.picked.filter((p) => p !== id);
  }

  /** Starts the comparison in `cwd`; its sessions join the Live group and the comparison is shown. */
  async start(cwd: string): Promise<boolean> {
    if (this.starting) return false;
    this.starting = true;
    this.error = '';
    try {
      const info = await api.StartComparison(cwd.trim(), $state.snapshot(this.picked), this.prompt, this.check.trim());
      for (const s of info.sessions ?? []) await this.#deps.onStarted(s as SessionInfo);
      this.asking = false;
      this.prompt = '';
      await this.show(info.id);
      return true;
    } catch (err) {
      this.error = api.errorMessage(err);
      return false;
    } finally {
      this.starting = false;
    }
  }

  /** Shows comparison `id` (reads it). */
  show = async (id: string): Promise<void> => {
    try {
      const v = await api.Comparison(id);
      this.view = { ...v, rows: v.rows ?? [] } as ComparisonView;
    } catch (err) {
      this.#deps.onError(api.errorMessage(err));
    }
  };

  /** Reads the shown comparison again. */
  refresh = async (): Promise<void> => {
    if (this.view) await this.show(this.view.id);
  };

  hide(): void {
    this.view = null;
  }

  /** Sends `text` to every live, ready session of the shown comparison; the check runs after each turn. */
  async followUp(text: string): Promise<void> {
    const rows = (this.view?.rows ?? []).filter((r) => r.state === 'idle');
    try {
      await Promise.all(rows.map((r) => api.Prompt(r.id, text)));
    } catch (err) {
      this.#deps.onError(api.errorMessage(err));
    }
    await this.refresh();
  }
}
