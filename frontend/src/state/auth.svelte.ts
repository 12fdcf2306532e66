// The login prompt's store. When a live session fails to start, or a turn of it fails (some
// agents, like the Claude Code adapter, ask for the login only when prompted), check() asks the
// backend whether its agent needs a login; if so `prompt` holds the agent's methods and the page shows
// them. Each method then starts the agent again (StartSessionWithAuth) and hands the new session
// to `onStarted`: agent methods at once, env_var methods with the values typed in the form
// (stored as the agent's secrets), terminal methods after the user ran the command ("Done").
import * as api from '../lib/api';
import { attempt } from '../lib/attempt';
import { filledValues, type AuthMethodInfo, type AuthPrompt } from '../lib/agents';
import type { SessionInfo } from '../lib/protocol';

export interface AuthStoreDeps {
  sessionAuth?: (sessionId: string) => Promise<AuthPrompt>;
  startWithAuth?: (sessionId: string, methodId: string, values: Record<string, string>) => Promise<SessionInfo>;
  runInTerminal?: (sessionId: string, methodId: string) => Promise<void>;
  /** A new session was started after a login: show it as the live one. */
  onStarted?: (info: SessionInfo) => Promise<void> | void;
}

export class AuthStore {
  prompt = $state<AuthPrompt | null>(null);
  /** The method whose form or command is open. */
  chosen = $state<string | null>(null);
  /** env_var values being typed, by variable name. */
  values = $state<Record<string, string>>({});
  busy = $state(false);
  error = $state('');
  /** A terminal window was opened for this method. */
  terminalOpened = $state<string | null>(null);

  readonly #deps: Required<AuthStoreDeps>;
  #checked = '';

  constructor(deps: AuthStoreDeps = {}) {
    this.#deps = {
      sessionAuth: deps.sessionAuth ?? api.SessionAuth,
      startWithAuth: deps.startWithAuth ?? api.StartSessionWithAuth,
      runInTerminal: deps.runInTerminal ?? api.RunAuthInTerminal,
      onStarted: deps.onStarted ?? (() => {}),
    };
  }

  /**
   * Asks whether the agent of `sessionId` needs a login, once per `occasion` (the failed start,
   * by default; a failed turn is another occasion of the same session).
   */
  async check(sessionId: string, occasion = sessionId): Promise<void> {
    if (this.#checked === occasion) return;
    this.#checked = occasion;
    try {
      const p = await this.#deps.sessionAuth(sessionId);
      if (this.#checked !== occasion || p.methods.length === 0) return;
      this.prompt = p;
      this.chosen = p.methods.length === 1 ? p.methods[0].id : null;
      this.values = {};
      this.error = '';
      this.terminalOpened = null;
    } catch {
      // Not a login problem the page can help with: the failed state already says why.
    }
  }

  /** Hides the prompt (a new session was started, or the user dismissed it). */
  clear(): void {
    this.prompt = null;
    this.chosen = null;
    this.values = {};
    this.error = '';
    this.terminalOpened = null;
  }

  choose(methodId: string): void {
    this.chosen = methodId;
    this.error = '';
  }

  /** Logs in with `method` and starts again (for terminal methods: after the user ran it). */
  async login(method: AuthMethodInfo): Promise<void> {
    const p = this.prompt;
    if (!p) return;
    await attempt(this, async () => {
      const values = method.type === 'env_var' ? filledValues($state.snapshot(this.values)) : {};
      const info = await this.#deps.startWithAuth(p.sessionId, method.id, values);
      this.clear();
      await this.#deps.onStarted(info);
    });
  }

  /** Opens a terminal window running the method's command. */
  async runInTerminal(method: AuthMethodInfo): Promise<void> {
    const p = this.prompt;
    if (!p || this.busy) return;
    this.error = '';
    try {
      await this.#deps.runInTerminal(p.sessionId, method.id);
      this.terminalOpened = method.id;
    } catch (err) {
      this.error = api.errorMessage(err);
    }
  }
}
