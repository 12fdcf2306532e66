// The Changes card and view's state (issue 17): the file whose diff is open, the diffs and "which
// sessions touched this file" lists loaded, the revert being previewed, and the last revert done
// (its Undo). One store for the window, given to the cards through a Svelte context
// (provideChanges / useChanges) as state/branching.svelte.ts is: the transcript is virtualised,
// and a card scrolled away and back finds its open diff and its preview here.
//
// Every revert is previewed first (PreviewRevert); Confirm is offered only for a plan without
// conflicts, and a plan that turns out to conflict when carried out comes back as the preview,
// with its conflicts. A failed call is kept where it happened (the preview, the diff, the list),
// worded by the Go side for a person.
import { getContext, setContext } from 'svelte';
import { SvelteMap } from 'svelte/reactivity';
import * as api from '../lib/api';
import { fileKey, sameRequest, type FileDiff, type FileTouch, type Plan, type RevertRequest } from '../lib/changes';
import type { ChangedFile } from '../lib/protocol';

export interface ChangesDeps {
  /** Shows session id: its live session, or the saved one read-only (as the history's rows do). */
  openSession: (id: string) => void;
}

/** The revert being previewed: its request, then its plan or why it could not be planned. */
export interface Preview {
  request: RevertRequest;
  plan: Plan | null;
  loading: boolean;
  /** Confirm was pressed: the revert runs. */
  applying: boolean;
  error: string;
}

/** The last revert carried out, until another one or its undo. */
export interface Done {
  plan: Plan;
  undoing: boolean;
  /** It was undone (the card says so, with nothing more to press). */
  undone: boolean;
  error: string;
}

/** What is loaded for one open file. */
export interface Loaded<T> {
  value: T | null;
  loading: boolean;
  error: string;
}

export class ChangesStore {
  readonly #deps: ChangesDeps;
  /** The open file of a card (fileKey), or null: one at a time across the window. */
  openFile = $state<string | null>(null);
  /** The file whose "which sessions touched this file" list is shown (fileKey), or null. */
  touchesOf = $state<string | null>(null);
  preview = $state<Preview | null>(null);
  done = $state<Done | null>(null);
  /** Goes up after each revert and undo: a view of the session's changes reads them again. */
  version = $state(0);
  readonly diffs = new SvelteMap<string, Loaded<FileDiff>>();
  readonly touches = new SvelteMap<string, Loaded<FileTouch[]>>();

  constructor(deps: ChangesDeps) {
    this.#deps = deps;
  }

  /** Shows another session (a row of "which sessions touched this file"). */
  openSession(id: string): void {
    this.#deps.openSession(id);
  }

  /** Opens file f of a turn (its diff loads the first time), or closes it when open. */
  toggleFile(sessionId: string, turn: number, f: ChangedFile): void {
    const key = fileKey(sessionId, turn, f);
    if (this.openFile === key) {
      this.openFile = null;
      return;
    }
    this.openFile = key;
    const had = this.diffs.get(key);
    if (had && !had.error) return;
    this.diffs.set(key, { value: null, loading: true, error: '' });
    api.ChangeDiff(sessionId, turn, f.root, f.path).then(
      (value) => this.diffs.set(key, { value, loading: false, error: '' }),
      (err) => this.diffs.set(key, { value: null, loading: false, error: api.errorMessage(err) }),
    );
  }

  /** Shows (loading it each time) or hides the sessions that touched file f. */
  toggleTouches(sessionId: string, turn: number, f: ChangedFile): void {
    const key = fileKey(sessionId, turn, f);
    if (this.touchesOf === key) {
      this.touchesOf = null;
      return;
    }
    this.touchesOf = key;
    this.touches.set(key, { value: this.touches.get(key)?.value ?? null, loading: true, error: '' });
    api.FileSessions(f.root, f.path).then(
      (value) => this.touches.set(key, { value, loading: false, error: '' }),
      (err) => this.touches.set(key, { value: null, loading: false, error: api.errorMessage(err) }),
    );
  }

  /** Plans req and shows the preview (one at a time: another preview replaces it). */
  async previewRevert(req: RevertRequest): Promise<void> {
    const p: Preview = { request: req, plan: null, loading: true, applying: false, error: '' };
    this.preview = p;
    try {
      const plan = await api.PreviewRevert(req);
      if (this.#current(req)) this.preview = { ...this.preview!, plan, loading: false };
    } catch (err) {
      if (this.#current(req)) this.preview = { ...this.preview!, loading: false, error: api.errorMessage(err) };
    }
  }

  /** Whether the preview shown is of req. */
  previewing(req: RevertRequest): boolean {
    return sameRequest(this.preview?.request, req);
  }

  cancelPreview(): void {
    this.preview = null;
  }

  /**
   * Carries out the previewed revert. A plan that now conflicts (a file changed since the
   * preview) stays shown with its conflicts; a revert done becomes `done`, with its Undo.
   */
  async confirm(): Promise<void> {
    const p = this.preview;
    if (!p?.plan || p.applying || p.plan.conflicts > 0) return;
    const req = p.request;
    this.preview = { ...p, applying: true, error: '' };
    try {
      const plan = await api.Revert(req);
      if (plan.done) {
        if (this.#current(req)) this.preview = null;
        this.done = { plan, undoing: false, undone: false, error: '' };
        this.version++;
      } else if (this.#current(req)) {
        this.preview = { ...this.preview!, plan, applying: false };
      }
    } catch (err) {
      if (this.#current(req)) this.preview = { ...this.preview!, applying: false, error: api.errorMessage(err) };
    }
  }

  /** Undoes the last revert; a conflict shows as a preview of the undo (nothing written). */
  async undo(): Promise<void> {
    const d = this.done;
    if (!d || d.undoing || d.undone || !d.plan.revertId) return;
    this.done = { ...d, undoing: true, error: '' };
    try {
      const plan = await api.UndoRevert(d.plan.request.sessionId, d.plan.revertId);
      if (plan.done) {
        this.done = { ...this.done!, undoing: false, undone: true };
        this.version++;
      } else {
        this.done = { ...this.done!, undoing: false };
        this.preview = { request: plan.request, plan, loading: false, applying: false, error: '' };
      }
    } catch (err) {
      this.done = { ...this.done!, undoing: false, error: api.errorMessage(err) };
    }
  }

  /** Forgets the last revert's note (its Undo goes with it). */
  dismissDone(): void {
    this.done = null;
  }

  #current(req: RevertRequest): boolean {
    return sameRequest(this.preview?.request, req);
  }
}

const KEY = Symbol('changes');

/** Makes s the changes store of the components below the caller (call during init). */
export function provideChanges(s: ChangesStore): void {
  setContext(KEY, s);
}

/** The changes store provided above, or undefined (the cards show their files, without actions). */
export function useChanges(): ChangesStore | undefined {
  return getContext<ChangesStore | undefined>(KEY);
}
