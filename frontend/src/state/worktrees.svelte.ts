// The worktrees of sessions started in one (issue 33): each session's worktree as Go reports it
// (History.Worktree: branch, commits ahead and behind, files changed; computed in Go, shown
// here), read when a session is shown, when its row first appears and after each of its turns;
// and the verbs on one: review and apply (the apply dialog), commit on its branch, discard.
// Provided to the components by context (provideWorktrees / useWorktrees).
import { getContext, setContext } from 'svelte';
import { SvelteMap } from 'svelte/reactivity';
import * as api from '../lib/api';
import type { main, worktree } from '../../wailsjs/go/models';

export type WorktreeView = main.WorktreeView;

/** The apply dialog of one session: its review, the apply's plan (or result) and the step it is at. */
export interface ApplyDialog {
  sessionId: string;
  review: worktree.Review | null;
  plan: worktree.ApplyResult | null;
  /** Reading, or applying. */
  busy: boolean;
  error: string;
}

export interface WorktreeDeps {
  onError: (message: string) => void;
  /** Closes live session `id` in the page (its worktree is about to go); resolves once closed. */
  closeLive: (id: string) => Promise<void>;
}

export class WorktreeStore {
  /** Session id → its worktree (null: it runs in none); absent until read. */
  readonly #views = new SvelteMap<string, WorktreeView | null>();
  /** The apply dialog, or null. */
  dialog = $state.raw<ApplyDialog | null>(null);
  /** A commit or a discard is under way for this session. */
  busyId = $state<string | null>(null);
  readonly #deps: WorktreeDeps;

  constructor(deps: WorktreeDeps) {
    this.#deps = deps;
  }

  /** Session `id`'s worktree: null for none, undefined until read. */
  view(id: string): WorktreeView | null | undefined {
    return this.#views.get(id);
  }

  /** Reads session `id`'s worktree once (a row's first appearance); refresh() reads it again. */
  ensure(id: string): void {
    if (!this.#views.has(id)) void this.refresh(id);
  }

  /** Reads session `id`'s worktree and status again (after a turn, an apply, a commit). */
  refresh = async (id: string): Promise<void> => {
    try {
      this.#views.set(id, (await api.Worktree(id)) ?? null);
    } catch (err) {
      this.#deps.onError(api.errorMessage(err));
    }
  };

  /** Opens the apply dialog of session `id`: what it changed, and what an apply would do. */
  async openApply(id: string): Promise<void> {
    this.dialog = { sessionId: id, review: null, plan: null, busy: true, error: '' };
    try {
      const [review, plan] = await Promise.all([api.ReviewWorktree(id), api.PreviewApply(id)]);
      if (this.dialog?.sessionId === id) this.dialog = { ...this.dialog, review, plan, busy: false };
    } catch (err) {
      if (this.dialog?.sessionId === id) this.dialog = { ...this.dialog, busy: false, error: api.errorMessage(err) };
    }
  }

  /** Applies the dialog's session: the result replaces the plan (Applied, or the conflicts found meanwhile). */
  async confirmApply(): Promise<void> {
    const d = this.dialog;
    if (!d || d.busy) return;
    this.dialog = { ...d, busy: true, error: '' };
    try {
      const plan = await api.ApplyWorktree(d.sessionId);
      if (this.dialog?.sessionId === d.sessionId) this.dialog = { ...this.dialog, plan, busy: false };
    } catch (err) {
      if (this.dialog?.sessionId === d.sessionId) this.dialog = { ...this.dialog, busy: false, error: api.errorMessage(err) };
    }
    void this.refresh(d.sessionId);
  }

  closeDialog(): void {
    if (!this.dialog?.busy) this.dialog = null;
  }

  /** Commits everything session `id` changed on its branch with `message`; true when committed. */
  async commit(id: string, message: string): Promise<boolean> {
    return this.#run(id, () => api.CommitWorktree(id, message));
  }

  /** Closes session `id` when live, then removes its worktree and branch (the person has confirmed). */
  async discard(id: string): Promise<boolean> {
    return this.#run(id, async () => {
      await this.#deps.closeLive(id);
      await api.DiscardWorktree(id);
    });
  }

  async #run(id: string, verb: () => Promise<unknown>): Promise<boolean> {
    if (this.busyId) return false;
    this.busyId = id;
    try {
      await verb();
      return true;
    } catch (err) {
      this.#deps.onError(api.errorMessage(err));
      return false;
    } finally {
      this.busyId = null;
      await this.refresh(id);
    }
  }
}

const KEY = Symbol('worktrees');

/** Makes `s` the worktree store of the components below (App does, once). */
export function provideWorktrees(s: WorktreeStore): WorktreeStore {
  setContext(KEY, s);
  return s;
}

/** The worktree store App provides; undefined in a component rendered alone (tests). */
export function useWorktrees(): WorktreeStore | undefined {
  return getContext<WorktreeStore | undefined>(KEY);
}
