// The permission rules as the window keeps them (issue 18): the Rules view's list, pause, edits,
// export and import (RulesStore), and the permission card's "Make a rule…" choices, which reach the
// live session's MakeFromRequest through a Svelte context (provideRuleMaker / useRuleMaker)
// rather than through every component between the app and a card, like the branching store.
import { getContext, setContext } from 'svelte';
import * as api from '../lib/api';
import type { Rule, RuleInfo } from '../lib/api';

/**
 * Makes the rule an open card offered (scope, decision) and answers the card with it. Rejects
 * on failure (after the failure was reported), so the card lets the person try again.
 */
export type RuleMaker = (requestId: string, scope: string, decision: string) => Promise<void>;

const MAKER = Symbol('rule-maker');

/** Gives the permission cards below the component that calls it their "Make a rule…" choices. */
export function provideRuleMaker(make: RuleMaker): void {
  setContext(MAKER, make);
}

/** The rule maker provided above, or undefined (a card then offers no rules). */
export function useRuleMaker(): RuleMaker | undefined {
  return getContext<RuleMaker | undefined>(MAKER);
}

export interface RulesStoreDeps {
  /** The one error sink (the window's banner) for a failure that is not shown in place. */
  onError: (err: unknown) => void;
}

/** The Rules view's state: every rule, whether all are paused, and the edits on them. */
export class RulesStore {
  rules = $state.raw<RuleInfo[]>([]);
  paused = $state(false);
  /** The first load has answered (the empty state is shown only then). */
  loaded = $state(false);
  loading = $state(false);
  /** A rule being changed: its controls wait (id, or 'pause'). */
  busy = $state<string | null>(null);
  readonly #onError: (err: unknown) => void;

  constructor(deps: RulesStoreDeps) {
    this.#onError = deps.onError;
  }

  /** Reads every rule (with how often each fired) and whether they are paused. */
  load = async (): Promise<void> => {
    this.loading = true;
    try {
      const list = await api.ListRules();
      this.rules = list.rules;
      this.paused = list.paused;
      this.loaded = true;
    } catch (err) {
      this.#onError(err);
    } finally {
      this.loading = false;
    }
  };

  /** Turns rule `id` off or on again. */
  setDisabled = (id: string, disabled: boolean): Promise<void> =>
    this.#change(id, async () => this.#replace(await api.SetRuleDisabled(id, disabled)));

  /** Deletes rule `id`. */
  remove = (id: string): Promise<void> =>
    this.#change(id, async () => {
      await api.DeleteRule(id);
      this.rules = this.rules.filter((r) => r.id !== id);
    });

  /** Pauses every rule ("ask me for everything") or lets them answer again. */
  setPaused = (paused: boolean): Promise<void> =>
    this.#change('pause', async () => {
      await api.SetRulesPaused(paused);
      this.paused = paused;
    });

  /**
   * Saves a new rule (no id) or an edited one. Resolves to '' when saved, or to the words of
   * the refusal, which the editor shows in place (nothing goes to the banner).
   */
  save = async (rule: Rule): Promise<string> => {
    try {
      this.#replace(await api.SaveRule(rule));
      return '';
    } catch (err) {
      return api.errorMessage(err);
    }
  };

  /** Exports every rule to a file the person picks: the path, or '' (cancelled or failed). */
  exportFile = async (): Promise<string> => {
    try {
      return await api.SaveRulesExport();
    } catch (err) {
      this.#onError(err);
      return '';
    }
  };

  /** Imports a rules file the person picks and reloads: how many, or null when it failed. */
  importFile = async (): Promise<number | null> => {
    try {
      const n = await api.ImportRules();
      if (n > 0) await this.load();
      return n;
    } catch (err) {
      this.#onError(err);
      return null;
    }
  };

  /** The rule as the service returned it, in place of its old self (a new one goes last). */
  #replace(info: RuleInfo): void {
    const i = this.rules.findIndex((r) => r.id === info.id);
    this.rules = i < 0 ? [...this.rules, info] : this.rules.map((r, j) => (j === i ? info : r));
  }

  async #change(key: string, run: () => Promise<void>): Promise<void> {
    if (this.busy) return;
    this.busy = key;
    try {
      await run();
    } catch (err) {
      this.#onError(err);
    } finally {
      this.busy = null;
    }
  }
}

/** A listed rule as the editor starts from it (the fields Save takes). */
export function ruleOf(info: RuleInfo): Rule {
  return {
    id: info.id,
    agentId: info.agentId,
    folder: info.folder,
    kind: info.kind,
    tool: info.tool,
    path: info.path,
    command: info.command,
    decision: info.decision,
    disabled: info.disabled,
  };
}

/** The ACP tool kinds a rule may name (acp's ToolKind). */
export const TOOL_KINDS = ['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'other'] as const;
