// The MCP servers pane of the agent editor: the configured servers and a form for one of them
// (a copy in `form`). Every change goes through the bindings (ListMCPServers, SaveMCPServer,
// DeleteMCPServer); failures are shown in the pane (`error`), where the user is looking.
import * as api from '../lib/api';
import { attempt } from '../lib/attempt';
import { emptyMCP, type MCPSettings } from '../lib/agents';

export interface MCPEditorDeps {
  list?: () => Promise<MCPSettings[]>;
  save?: (settings: MCPSettings) => Promise<MCPSettings>;
  remove?: (name: string) => Promise<void>;
}

export class MCPEditorStore {
  servers = $state<MCPSettings[]>([]);
  /** The server being edited (`was` '': a new one). */
  form = $state<MCPSettings>(emptyMCP());
  busy = $state(false);
  error = $state('');
  /** What the last save did, for a polite status line ("Saved github."). */
  status = $state('');

  readonly #deps: Required<MCPEditorDeps>;

  constructor(deps: MCPEditorDeps = {}) {
    this.#deps = { list: deps.list ?? api.ListMCPServers, save: deps.save ?? api.SaveMCPServer, remove: deps.remove ?? api.DeleteMCPServer };
  }

  /** Reloads the list; keeps the form unless it edits a server that is gone. */
  async load(): Promise<void> {
    try {
      this.servers = await this.#deps.list();
      if (this.form.was && !this.servers.some((m) => m.name === this.form.was)) this.newServer();
    } catch (err) {
      this.error = api.errorMessage(err);
    }
  }

  newServer(): void {
    this.error = '';
    this.status = '';
    this.form = emptyMCP();
  }

  select(name: string): void {
    const m = this.servers.find((s) => s.name === name);
    if (!m) return;
    this.error = '';
    this.status = '';
    this.form = structuredClone($state.snapshot(m));
  }

  /** Scopes the server to agent `id` (on) or not; no agent ticked means every agent. */
  toggleAgent(id: string, on: boolean): void {
    const rest = this.form.agents.filter((a) => a !== id);
    this.form.agents = on ? [...rest, id] : rest;
  }

  /** Saves the form; resolves true when saved (the form then shows the saved server). */
  save(): Promise<boolean> {
    if (!this.busy) this.status = '';
    return attempt(this, async () => {
      const saved = await this.#deps.save($state.snapshot(this.form));
      this.servers = await this.#deps.list();
      this.form = structuredClone(saved);
      this.status = `Saved ${saved.name}. New sessions get it; running ones keep what they started with.`;
    });
  }

  async remove(): Promise<void> {
    const name = this.form.was;
    if (!name) return;
    await attempt(this, async () => {
      await this.#deps.remove(name);
      this.servers = await this.#deps.list();
      this.newServer();
      this.status = `Deleted ${name}.`;
    });
  }
}
