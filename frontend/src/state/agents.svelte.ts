// The agent editor's store: whether the dialog is open, which custom agent is being edited (a
// copy in `form`), and the Zed import. Every change goes through the bindings (SaveAgent,
// DeleteAgent, ImportZedAgents) and then `onChanged` reloads the picker's list. Failures are
// shown inside the dialog (`error`), where the user is looking, not in the page's banner.
import * as api from '../lib/api';
import { attempt } from '../lib/attempt';
import { emptyAgent, type AgentSettings, type ImportResult } from '../lib/agents';
import type { AgentInfo } from '../lib/protocol';
import { MCPEditorStore } from './mcp.svelte';
import { PresetEditorStore } from './presets.svelte';

export interface AgentEditorDeps {
  getAgent?: (id: string) => Promise<AgentSettings>;
  saveAgent?: (settings: AgentSettings) => Promise<AgentInfo>;
  deleteAgent?: (id: string) => Promise<void>;
  importZed?: (text: string) => Promise<ImportResult>;
  /** The agents changed: reload the picker's list. `selected` is the agent saved, if one was. */
  onChanged?: (selected?: AgentInfo) => Promise<void> | void;
  /** The MCP servers pane (a real one over the bindings by default). */
  mcp?: MCPEditorStore;
  /** The preset override pane (a real one over the bindings by default). */
  preset?: PresetEditorStore;
}

export type EditorView = 'edit' | 'import' | 'mcp' | 'preset';

export class AgentEditorStore {
  open = $state(false);
  view = $state<EditorView>('edit');
  /** The agent being edited ('' id: a new one). */
  form = $state<AgentSettings>(emptyAgent());
  busy = $state(false);
  error = $state('');
  importText = $state('');
  imported = $state<ImportResult | null>(null);

  /** The MCP servers pane (view 'mcp'). */
  readonly mcp: MCPEditorStore;
  /** The override of a preset (view 'preset'). */
  readonly preset: PresetEditorStore;

  readonly #deps: Required<Omit<AgentEditorDeps, 'mcp' | 'preset'>>;

  constructor(deps: AgentEditorDeps = {}) {
    this.mcp = deps.mcp ?? new MCPEditorStore();
    this.preset = deps.preset ?? new PresetEditorStore({ onChanged: () => deps.onChanged?.() });
    this.#deps = {
      getAgent: deps.getAgent ?? api.GetAgent,
      saveAgent: deps.saveAgent ?? api.SaveAgent,
      deleteAgent: deps.deleteAgent ?? api.DeleteAgent,
      importZed: deps.importZed ?? api.ImportZedAgents,
      onChanged: deps.onChanged ?? (() => {}),
    };
  }

  /** Opens the dialog on custom agent `id`, or on a new agent. */
  async show(id?: string): Promise<void> {
    this.open = true;
    this.imported = null;
    if (id) await this.edit(id);
    else this.newAgent();
  }

  close(): void {
    this.open = false;
    this.error = '';
  }

  newAgent(): void {
    this.view = 'edit';
    this.error = '';
    this.form = emptyAgent();
  }

  async edit(id: string): Promise<void> {
    this.view = 'edit';
    this.error = '';
    try {
      this.form = await this.#deps.getAgent(id);
    } catch (err) {
      this.error = api.errorMessage(err);
    }
  }

  /** Saves the form; resolves true when saved (the form then shows the saved agent). */
  save(): Promise<boolean> {
    return attempt(this, async () => {
      const saved = await this.#deps.saveAgent($state.snapshot(this.form));
      await this.#deps.onChanged(saved);
      this.form = await this.#deps.getAgent(saved.id);
    });
  }

  async remove(): Promise<void> {
    const id = this.form.id;
    if (!id) return;
    await attempt(this, async () => {
      await this.#deps.deleteAgent(id);
      await this.#deps.onChanged();
      this.newAgent();
    });
  }

  /** Opens the dialog (if closed) on the override of preset `info`. */
  async editPreset(info: AgentInfo): Promise<void> {
    this.open = true;
    this.view = 'preset';
    this.error = '';
    await this.preset.load(info);
  }

  /** Shows the MCP servers pane, its list reloaded. */
  async showMCP(): Promise<void> {
    this.open = true;
    this.view = 'mcp';
    this.error = '';
    await this.mcp.load();
  }

  showImport(): void {
    this.view = 'import';
    this.error = '';
    this.imported = null;
  }

  async runImport(): Promise<void> {
    await attempt(this, async () => {
      this.imported = await this.#deps.importZed(this.importText);
      this.importText = '';
      await this.#deps.onChanged();
    });
  }
}
