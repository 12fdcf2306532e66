// The top bar's store: the agents the picker lists, the agent picked, the project folder, and
// Start. Picking an agent that has a default folder puts that folder in the field (once per pick:
// the person may then edit it). Failures go to onError.
import * as api from '../lib/api';
import type { AgentInfo, SessionInfo } from '../lib/protocol';

export interface LauncherDeps {
  onError: (message: string) => void;
  /** A session was started: show it (resolves once it is attached). */
  onStarted: (info: SessionInfo) => Promise<void>;
}

export class Launcher {
  agents = $state<AgentInfo[]>([]);
  cwd = $state('');
  /** A StartSession call is in flight. */
  starting = $state(false);
  /** The custom agents (the editor lists them). */
  readonly custom = $derived(this.agents.filter((a) => a.custom));

  #agentId = $state('');
  /** The agent whose default folder was last put in the field. */
  #folderFor = '';
  readonly #deps: LauncherDeps;

  constructor(deps: LauncherDeps) {
    this.#deps = deps;
  }

  /** The agent picked ('' before the list has loaded). */
  get agentId(): string {
    return this.#agentId;
  }
  set agentId(id: string) {
    this.#agentId = id;
    this.#applyFolder();
  }

  /** Reloads the picker's list; `select` picks that agent (one just saved), else the pick is kept if still listed. */
  load = async (select?: AgentInfo): Promise<void> => {
    try {
      const list = await api.ListAgents();
      this.agents = list;
      if (select && list.some((a) => a.id === select.id)) this.agentId = select.id;
      else if (!this.#agentId || !list.some((a) => a.id === this.#agentId)) {
        this.agentId = (list.find((a) => a.available) ?? list[0])?.id ?? '';
      } else this.#applyFolder();
    } catch (err) {
      this.#deps.onError(api.errorMessage(err));
    }
  };

  /** Fills the folder field with the default folder, unless something is in it already. */
  async loadDefaultFolder(): Promise<void> {
    try {
      const folder = await api.DefaultFolder();
      if (!this.cwd) this.cwd = folder;
    } catch (err) {
      this.#deps.onError(api.errorMessage(err));
    }
  }

  /** Starts the picked agent in the folder (one start at a time). */
  async start(): Promise<void> {
    if (this.starting) return;
    this.starting = true;
    try {
      await this.#deps.onStarted(await api.StartSession(this.#agentId, this.cwd.trim()));
    } catch (err) {
      this.#deps.onError(api.errorMessage(err));
    } finally {
      this.starting = false;
    }
  }

  #applyFolder(): void {
    const a = this.agents.find((x) => x.id === this.#agentId);
    if (!a || a.id === this.#folderFor) return;
    this.#folderFor = a.id;
    if (a.folder) this.cwd = a.folder;
  }
}
