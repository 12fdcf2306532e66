// The preset pane of the agent editor: the override of one preset (its own command instead of
// agentdesk's pinned copy, arguments, default folder, version, variables) loaded into `form`,
// saved, reset, and its pinned package installed or updated. The facts shown (installed
// version, pin, update offered) are Go's (AgentInfo.preset: agents.PresetState); this store
// only carries them. Every change goes through the bindings and then `onChanged` reloads the
// picker's list. Failures are shown in the pane (`error`).
import * as api from '../lib/api';
import { attempt } from '../lib/attempt';
import { emptyAgent, type AgentSettings } from '../lib/agents';
import { onPresetProgress } from '../lib/events';
import type { AgentInfo } from '../lib/protocol';

export interface PresetEditorDeps {
  getOverride?: (id: string) => Promise<AgentSettings>;
  saveOverride?: (s: AgentSettings) => Promise<AgentInfo>;
  reset?: (id: string) => Promise<AgentInfo>;
  install?: (id: string) => Promise<AgentInfo>;
  /** The agents changed: reload the picker's list. */
  onChanged?: () => Promise<void> | void;
}

export class PresetEditorStore {
  /** The preset edited, its override (or its own settings) in `form`. */
  form = $state<AgentSettings>(emptyAgent());
  /** The preset as the picker lists it (installed version, pin, update offered). */
  info = $state.raw<AgentInfo | null>(null);
  busy = $state(false);
  error = $state('');
  /** The install's step under way, in Go's words; '' when none. */
  step = $state('');

  readonly #deps: Required<PresetEditorDeps>;

  constructor(deps: PresetEditorDeps = {}) {
    this.#deps = {
      getOverride: deps.getOverride ?? api.GetPresetOverride,
      saveOverride: deps.saveOverride ?? api.SavePresetOverride,
      reset: deps.reset ?? api.ResetPreset,
      install: deps.install ?? api.InstallPreset,
      onChanged: deps.onChanged ?? (() => {}),
    };
  }

  /** Loads preset `info`'s override into the form. */
  async load(info: AgentInfo): Promise<void> {
    this.info = info;
    this.error = '';
    this.step = '';
    try {
      this.form = await this.#deps.getOverride(info.id);
    } catch (err) {
      this.error = api.errorMessage(err);
    }
  }

  save(): Promise<boolean> {
    return this.#change(() => this.#deps.saveOverride($state.snapshot(this.form)));
  }

  reset(): Promise<boolean> {
    return this.#change(() => this.#deps.reset(this.form.id));
  }

  /** Installs the preset's package at its pin, or updates to it; each step shows in `step`. */
  install(): Promise<boolean> {
    const id = this.form.id;
    const off = onPresetProgress((p) => {
      if (p.id === id) this.step = p.step;
    });
    return this.#change(() => this.#deps.install(id)).finally(() => {
      off();
      this.step = '';
    });
  }

  #change(action: () => Promise<AgentInfo>): Promise<boolean> {
    return attempt(this, async () => {
      this.info = await action();
      await this.#deps.onChanged();
      this.form = await this.#deps.getOverride(this.form.id);
    });
  }
}
