// What the person does to the live session (prompt, stop, answer a permission, the pickers, the
// attachment picker's file list), each one call of a binding for the live session's id.
//
// Every action goes through one helper, run(): no live session, nothing is called; a failure is
// reported to the one error sink (the page's banner) once, worded by api.errorMessage. How the
// caller then hears of it is the action's contract, stated with each: most resolve to a value that
// says so (false, undefined); those whose control must revert (a permission prompt, a picker)
// reject after the report; the file list rejects with the words without reporting (the picker
// shows them in place).
import * as api from '../lib/api';
import type { Attachment, DroppedFiles, ElicitationAction, FolderFile } from '../lib/protocol';

/** What an elicitation card calls; each rejects with the words to show in the card (nothing is reported elsewhere). */
export interface ElicitHandlers {
  answer: (requestId: string, action: ElicitationAction, content: Record<string, unknown> | null) => Promise<void>;
  openUrl: (requestId: string) => Promise<void>;
}

/** How run() hands a failure back, after or instead of reporting it. */
export type OnFailure =
  /** Report it; resolve undefined. */
  | 'report'
  /** Report it; reject with the error (the caller reverts its control). */
  | 'rethrow'
  /** Do not report it; reject with an Error carrying the words to show (the caller shows them). */
  | 'reject';

export interface SessionActionsDeps {
  /** The live session's id now, or null (read at each action). */
  sessionId: () => string | null;
  /** The one error sink: a message for a person. */
  onError: (message: string) => void;
}

export class SessionActions {
  readonly #sessionId: () => string | null;
  readonly #onError: (message: string) => void;

  constructor(deps: SessionActionsDeps) {
    this.#sessionId = deps.sessionId;
    this.#onError = deps.onError;
  }

  /**
   * Runs `call` with the live session's id and resolves to its result. Without a live session
   * nothing is called and it resolves undefined. A failure is handled as `onFailure` says.
   */
  async run<T>(call: (sessionId: string) => Promise<T>, onFailure: OnFailure = 'report'): Promise<T | undefined> {
    const id = this.#sessionId();
    if (!id) return undefined;
    try {
      return await call(id);
    } catch (err) {
      if (onFailure === 'reject') throw new Error(api.errorMessage(err));
      this.#onError(api.errorMessage(err));
      if (onFailure === 'rethrow') throw err;
      return undefined;
    }
  }

  // The actions are arrow properties: handed to the components as they are.

  /** Sends a prompt (with its attachments, if any); resolves true when it was sent. */
  send = async (text: string, attachments: Attachment[]): Promise<boolean> => {
    const sent = await this.run(async (id) => {
      if (attachments.length > 0) await api.PromptWith(id, text, attachments);
      else await api.Prompt(id, text);
      return true;
    });
    return sent === true;
  };

  /** Replaces a queued prompt's text; resolves false when it failed (reported). */
  editQueued = async (itemId: string, text: string): Promise<boolean> =>
    (await this.run(async (id) => (await api.EditQueued(id, itemId, text), true))) === true;

  /** Takes a queued prompt out of the queue unsent. */
  removeQueued = (itemId: string): void => void this.run((id) => api.RemoveQueued(id, itemId));

  /** Sends a queued prompt next (stopping the running turn first, if any). */
  sendQueuedNow = (itemId: string): void => void this.run((id) => api.SendQueuedNow(id, itemId));

  /** Steers a queued prompt into the running turn; resolves once the agent answered (failures reported). */
  steer = async (itemId: string): Promise<void> => {
    await this.run((id) => api.Steer(id, itemId));
  };

  /** Asks the agent to stop the running turn. */
  stop = (): void => void this.run((id) => api.Stop(id));

  /** Kills the agent's process group and ends the turn (a stop that did not finish). */
  hardStop = (): void => void this.run((id) => api.HardStop(id));

  /** Answers a permission request; rejects on failure, so the prompt lets the person try again. */
  answer = async (requestId: string, optionId: string): Promise<void> => {
    await this.run((id) => api.AnswerPermission(id, requestId, optionId), 'rethrow');
  };

  /**
   * Makes the rule a permission card offered ("always allow reads in ~/src/app") and answers the
   * card with it; rejects on failure, like answer, so the card lets the person try again.
   */
  makeRule = async (requestId: string, scope: string, decision: string): Promise<void> => {
    await this.run((id) => api.MakeRuleFromRequest(id, requestId, scope, decision), 'rethrow');
  };

  /**
   * Answering an elicitation of the live session: accept (with the form's typed content; null for
   * a url one), decline or cancel, and opening a url one's page in the system browser. Both reject
   * with the words to show, without reporting them: the card shows them and keeps what was typed.
   */
  elicit: ElicitHandlers = {
    answer: async (requestId, action, content) => {
      await this.run((id) => api.AnswerElicitation(id, requestId, action, content ?? {}), 'reject');
    },
    openUrl: async (requestId) => {
      await this.run((id) => api.OpenElicitationURL(id, requestId), 'reject');
    },
  };

  /** Restarts an exited agent and reattaches to the session. */
  continueSession = async (): Promise<void> => {
    await this.run((id) => api.ContinueSession(id));
  };

  /** A config option's picker; rejects when the agent refused (the picker reverts). */
  setConfig = async (configId: string, value: string | boolean): Promise<void> => {
    await this.run((id) => api.SetConfigOption(id, configId, value), 'rethrow');
  };

  /** The legacy mode picker; rejects when the agent refused. */
  setMode = async (modeId: string): Promise<void> => {
    await this.run((id) => api.SetMode(id, modeId), 'rethrow');
  };

  /** The legacy model picker; rejects when the agent refused. */
  setModel = async (modelId: string): Promise<void> => {
    await this.run((id) => api.SetModel(id, modelId), 'rethrow');
  };

  /** A file from outside the session folder the person chose in the open dialog; null when cancelled (failures reported). */
  chooseFile = async (): Promise<FolderFile | null> => {
    const f = await this.run((id) => api.ChooseFileElsewhere(id));
    return f && f.path ? f : null;
  };

  /** Files dropped on the window made attachable to the live session; undefined when it failed (reported). */
  attachDropped = async (paths: string[]): Promise<DroppedFiles | undefined> => await this.run((id) => api.AttachDropped(id, paths));

  /** Files of the live session's folder for the attachment picker; rejects with the words to show. */
  listFiles = async (query: string): Promise<FolderFile[]> =>
    (await this.run((id) => api.ListFolderFiles(id, query), 'reject')) ?? [];
}
