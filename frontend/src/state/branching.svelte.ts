// Branching a session (issue 16): edit a user message and rerun it, fork from a message, continue
// in another agent. Each makes a new live session linked to the shown one, which is left as it is.
//
// The store is given to the transcript's user messages through a Svelte context (provideBranching
// / useBranching) rather than through the transcript's props, so the message actions need no
// change to the components between the app and a user entry. The inline editor's text lives here,
// not in the entry's component: the transcript is virtualised, and a message scrolled away and
// back keeps its edit. Typed text is kept until Cancel or a rerun that started.
import { getContext, setContext } from 'svelte';
import * as api from '../lib/api';
import type { SessionInfo } from '../lib/protocol';

export interface BranchingDeps {
  /** The shown session's id (live or saved), or null: no actions then. */
  sessionId: () => string | null;
  /** Shows the new session (App's showStarted). */
  onStarted: (info: SessionInfo) => Promise<void> | void;
  /** The one error sink: a message for a person. */
  onError: (message: string) => void;
}

/** An open inline editor: which message of which session, and the text so far. */
export interface MessageEdit {
  sessionId: string;
  entryId: string;
  turn: number;
  text: string;
}

export class Branching {
  readonly #deps: BranchingDeps;
  /** The message being edited, or null. */
  editing = $state<MessageEdit | null>(null);
  /** A branch is being started: the actions wait. */
  busy = $state(false);

  constructor(deps: BranchingDeps) {
    this.#deps = deps;
  }

  /** The shown session's id, or null. */
  get sessionId(): string | null {
    return this.#deps.sessionId();
  }

  /** Opens the inline editor on a message of the shown session, with its text. */
  edit(entryId: string, turn: number, text: string): void {
    const sessionId = this.sessionId;
    if (!sessionId || turn < 1) return;
    this.editing = { sessionId, entryId, turn, text };
  }

  /** Whether message entryId of the shown session is being edited. */
  isEditing(entryId: string): boolean {
    const e = this.editing;
    return !!e && e.entryId === entryId && e.sessionId === this.sessionId;
  }

  /** Closes the editor; the edited text is dropped. */
  cancel(): void {
    this.editing = null;
  }

  /**
   * Reruns the edited message in a new linked session. The editor closes only once the new session
   * started; a failure is reported and the text stays. Resolves whether it started.
   */
  async rerun(): Promise<boolean> {
    const e = this.editing;
    if (!e || !e.text.trim() || this.busy) return false;
    return this.#run(async () => {
      const info = await api.RerunEdited(e.sessionId, e.turn, e.text);
      if (this.editing === e) this.editing = null;
      return info;
    });
  }

  /** Forks the shown session from its turn `turn` (the message and its answer kept). */
  fork(turn: number): Promise<boolean> {
    const id = this.sessionId;
    if (!id || turn < 1 || this.busy) return Promise.resolve(false);
    return this.#run(() => api.ForkSession(id, turn));
  }

  /** Continues session sessionId (live or saved) in agent agentId. */
  continueIn(sessionId: string, agentId: string): Promise<boolean> {
    if (!sessionId || !agentId || this.busy) return Promise.resolve(false);
    return this.#run(() => api.ContinueInAgent(sessionId, agentId));
  }

  async #run(start: () => Promise<SessionInfo>): Promise<boolean> {
    this.busy = true;
    try {
      const info = await start();
      await this.#deps.onStarted(info);
      return true;
    } catch (err) {
      this.#deps.onError(api.errorMessage(err));
      return false;
    } finally {
      this.busy = false;
    }
  }
}

const KEY = Symbol('branching');

/** Makes b the branching store of the components below the caller (call during init). */
export function provideBranching(b: Branching): void {
  setContext(KEY, b);
}

/** The branching store provided above, or undefined (no message actions then). */
export function useBranching(): Branching | undefined {
  return getContext<Branching | undefined>(KEY);
}
