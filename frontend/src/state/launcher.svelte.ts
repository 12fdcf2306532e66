// The top bar's store: the agents the picker lists, the agent picked, the project folder (typed,
// chosen in the system's dialog, or one of the recent folders, the picked agent's own first), and
// Start. Picking an agent that has a default folder puts that folder in the field (once per pick:
// the person may then edit it). A start in the home folder itself or in / waits for the person to
// confirm it (`broad`). Failures go to onError.
import * as api from '../lib/api';
import { onPresetProgress } from '../lib/events';
import type { AgentInfo, FolderCheck, HistoryItem, SessionInfo } from '../lib/protocol';
import type { hub } from '../../wailsjs/go/models';

export interface LauncherDeps {
  onError: (message: string) => void;
  /** A session was started: show it (resolves once it is attached). */
  onStarted: (info: SessionInfo) => Promise<void>;
}

export class Launcher {
  agents = $state<AgentInfo[]>([]);
  cwd = $state('');
  /** The session's additional folders (beside cwd), in the order added. */
  dirs = $state<string[]>([]);
  /** A StartSession call is in flight (or the folder check before it). */
  starting = $state(false);
  /** The recent folders for the picked agent (RecentFolders()), its own first. */
  recent = $state.raw<string[]>([]);
  /** A start held until the person confirms its folder, which is the home folder itself or /; else null. */
  broad = $state.raw<FolderCheck | null>(null);
  /** A start held until the person agrees to install the picked preset's package (that preset), else null. */
  install = $state.raw<AgentInfo | null>(null);
  /** The held install is under way; its step in Go's words, and its failure. */
  installing = $state(false);
  installStep = $state('');
  installError = $state('');
  /** The "new worktree" switch: start the session in a git worktree of the folder's repository. */
  worktree = $state(false);
  /** With it, bring the person's uncommitted changes into the worktree (asked when there are some). */
  carry = $state(false);
  /** Whether the folder in the field can have a worktree, and why not (ChooseWorktree); null until read. */
  worktreeChoice = $state.raw<hub.WorktreeChoice | null>(null);
  /** The custom agents (the editor lists them). */
  readonly custom = $derived(this.agents.filter((a) => a.custom));

  #agentId = $state('');
  /** The agent whose default folder was last put in the field. */
  #folderFor = '';
  /** The latest loadRecent call (an earlier one answering late is dropped). */
  #recentRequest = 0;
  /** The latest checkWorktree call, likewise. */
  #choiceRequest = 0;
  readonly #deps: LauncherDeps;

  constructor(deps: LauncherDeps) {
    this.#deps = deps;
  }

  /** The agent picked ('' before the list has loaded). */
  get agentId(): string {
    return this.#agentId;
  }
  set agentId(id: string) {
    const changed = id !== this.#agentId;
    this.#agentId = id;
    this.#applyFolder();
    if (changed) void this.loadRecent();
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

  /** Reloads the recent folders for the picked agent. */
  loadRecent = async (): Promise<void> => {
    const req = ++this.#recentRequest;
    try {
      const list = await api.RecentFolders(this.#agentId);
      if (req === this.#recentRequest) this.recent = list;
    } catch (err) {
      if (req === this.#recentRequest) this.#deps.onError(api.errorMessage(err));
    }
  };

  /**
   * Reads whether the folder in the field can have a worktree, and puts the switch where it was
   * for that folder's latest session (remembered per project, in Go).
   */
  checkWorktree = async (): Promise<void> => {
    const req = ++this.#choiceRequest;
    const cwd = this.cwd.trim();
    try {
      const choice = cwd ? await api.ChooseWorktree(cwd) : null;
      if (req !== this.#choiceRequest) return;
      this.worktreeChoice = choice;
      this.worktree = !!choice?.possible && choice.chosen;
      this.carry = false; // asked anew for each folder
    } catch (err) {
      if (req === this.#choiceRequest) this.#deps.onError(api.errorMessage(err));
    }
  };

  /** Opens the system's folder dialog at the folder in the field; the folder chosen replaces it (a cancel changes nothing). */
  browse = async (): Promise<void> => {
    try {
      const dir = await api.BrowseFolder(this.cwd.trim());
      if (dir) this.cwd = dir;
    } catch (err) {
      this.#deps.onError(api.errorMessage(err));
    }
  };

  /** Opens the system's folder dialog; the folder chosen is added to `dirs` (not twice, never cwd). */
  addDir = async (): Promise<void> => {
    try {
      const dir = await api.BrowseFolder(this.dirs.at(-1) ?? this.cwd.trim());
      if (dir && dir !== this.cwd.trim() && !this.dirs.includes(dir)) this.dirs = [...this.dirs, dir];
    } catch (err) {
      this.#deps.onError(api.errorMessage(err));
    }
  };

  removeDir = (dir: string): void => {
    this.dirs = this.dirs.filter((d) => d !== dir);
  };

  /**
   * Fills the form from a saved session: its agent (by id, else by name, when still listed) and
   * its folder. Not while a start is in flight or waiting for its confirmation.
   */
  fill(item: Pick<HistoryItem, 'agentId' | 'agentName' | 'cwd'>): void {
    if (this.starting || this.broad) return;
    const agent = this.agents.find((a) => (item.agentId ? a.id === item.agentId : a.name === item.agentName));
    if (agent) this.agentId = agent.id;
    if (item.cwd) this.cwd = item.cwd;
  }

  /**
   * Starts the picked agent in the folder (one start at a time). The folder is checked first: a
   * folder that does not exist is reported, and the home folder itself or / is held in `broad`
   * until confirmBroad() (or dismissBroad()).
   */
  async start(): Promise<void> {
    if (this.starting || this.broad || this.install) return;
    const picked = this.agents.find((a) => a.id === this.#agentId);
    if (picked?.preset?.installable) {
      this.install = picked; // nothing is installed without the person's yes
      return;
    }
    this.starting = true;
    const cwd = this.cwd.trim();
    try {
      const check = await api.CheckFolder(cwd);
      if (check.broad) {
        this.broad = check;
        this.starting = false;
        return;
      }
    } catch (err) {
      this.#deps.onError(api.errorMessage(err));
      this.starting = false;
      return;
    }
    await this.#launch(cwd);
  }

  /** Installs the held preset's package (each step in `installStep`), then starts as asked. */
  async confirmInstall(): Promise<void> {
    const held = this.install;
    if (!held || this.installing) return;
    this.installing = true;
    this.installError = '';
    const off = onPresetProgress((p) => {
      if (p.id === held.id) this.installStep = p.step;
    });
    try {
      await api.InstallPreset(held.id);
    } catch (err) {
      this.installError = api.errorMessage(err);
      return;
    } finally {
      off();
      this.installing = false;
      this.installStep = '';
    }
    await this.#resume();
  }

  /** Starts the held preset from the person's own command found on PATH (saved in its override) instead. */
  async useOwn(): Promise<void> {
    const held = this.install;
    if (!held?.preset?.ownFound || this.installing) return;
    try {
      const s = await api.GetPresetOverride(held.id);
      await api.SavePresetOverride({ ...s, command: held.preset.ownFound });
    } catch (err) {
      this.installError = api.errorMessage(err);
      return;
    }
    await this.#resume();
  }

  /** Drops the held start; nothing is installed. */
  dismissInstall(): void {
    if (this.installing) return;
    this.install = null;
    this.installError = '';
  }

  async #resume(): Promise<void> {
    this.install = null;
    await this.load();
    await this.start();
  }

  /** Starts the start held in `broad`, in that folder. */
  async confirmBroad(): Promise<void> {
    const held = this.broad;
    if (!held || this.starting) return;
    this.broad = null;
    this.starting = true;
    await this.#launch(held.path);
  }

  /** Drops the start held in `broad`; the form keeps what it holds. */
  dismissBroad(): void {
    this.broad = null;
  }

  async #launch(cwd: string): Promise<void> {
    try {
      const worktree = this.worktree && !!this.worktreeChoice?.possible;
      const carry = worktree && this.carry && (this.worktreeChoice?.uncommitted ?? 0) > 0;
      await this.#deps.onStarted(await api.StartSession(this.#agentId, cwd, $state.snapshot(this.dirs), worktree, carry));
      void this.loadRecent(); // the folder just used comes first now
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
