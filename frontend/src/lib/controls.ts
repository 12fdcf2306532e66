// Reading the agent's session controls (protocol.ts Controls) for the pickers. The Go side keeps
// config option values and option lists raw, as the agent sent them: a select's options are a flat
// list `[{value, name, description?}]` or groups `[{group, name, options: [...]}]`; values are
// strings (select) or booleans (boolean). Anything else is read defensively, never trusted.
import type { ConfigOption, Controls } from './protocol';

export interface Choice {
  value: string;
  name: string;
  description?: string;
}

export interface ChoiceGroup {
  /** The group's label; '' for the ungrouped choices of a flat list. */
  label: string;
  choices: Choice[];
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function toChoice(v: unknown): Choice | null {
  if (!v || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  const value = str(o.value);
  if (value === undefined) return null;
  const description = str(o.description);
  return { value, name: str(o.name) || value, ...(description ? { description } : {}) };
}

/**
 * The choices of a select option, grouped as the agent sent them: one group with label '' for a
 * flat list, one group per agent group otherwise (flat items mixed into a grouped list are kept in
 * ungrouped groups, in order).
 */
export function selectGroups(option: Pick<ConfigOption, 'options'>): ChoiceGroup[] {
  const raw = option.options;
  if (!Array.isArray(raw)) return [];
  const groups: ChoiceGroup[] = [];
  let loose: ChoiceGroup | null = null;
  for (const item of raw) {
    if (item && typeof item === 'object' && Array.isArray((item as Record<string, unknown>).options)) {
      const g = item as Record<string, unknown>;
      const choices = (g.options as unknown[]).map(toChoice).filter((c): c is Choice => c !== null);
      groups.push({ label: str(g.name) || str(g.group) || '', choices });
      loose = null;
      continue;
    }
    const c = toChoice(item);
    if (!c) continue;
    if (!loose) {
      loose = { label: '', choices: [] };
      groups.push(loose);
    }
    loose.choices.push(c);
  }
  return groups;
}

/** Every choice of a select option, groups flattened. */
export function allChoices(option: Pick<ConfigOption, 'options'>): Choice[] {
  return selectGroups(option).flatMap((g) => g.choices);
}

/** A select option's current value as a string ('' when the agent sent none). */
export function selectValue(option: Pick<ConfigOption, 'currentValue'>): string {
  const v = option.currentValue;
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}

/** A boolean option's current value (the strings "true"/"false" are accepted too). */
export function booleanValue(option: Pick<ConfigOption, 'currentValue'>): boolean {
  const v = option.currentValue;
  return v === true || v === 'true';
}

/** Config options this build renders (select and boolean), in the agent's order. */
export function renderableOptions(controls: Controls | null | undefined): ConfigOption[] {
  return (controls?.configOptions ?? []).filter((o) => o && (o.type === 'select' || o.type === 'boolean'));
}

/**
 * True when one of the agent's config options is its `category` picker ("mode" or "model"; an
 * option without a category counts by its id): ACP prefers config options to the legacy mode and
 * model lists, so that legacy picker is left out then — and only then. An agent that sends, say, a
 * thought-level option beside its modes keeps its Mode picker.
 */
export function configCovers(controls: Controls | null | undefined, category: 'mode' | 'model'): boolean {
  return renderableOptions(controls).some((o) => (o.category || o.id) === category);
}

/** The legacy modes to offer: the agent's, unless a config option is its mode picker. */
export function legacyModes(controls: Controls | null | undefined): NonNullable<Controls['modes']>['availableModes'] {
  return configCovers(controls, 'mode') ? [] : (controls?.modes?.availableModes ?? []);
}

/** The legacy models to offer: the agent's, unless a config option is its model picker. */
export function legacyModels(controls: Controls | null | undefined): NonNullable<Controls['models']>['availableModels'] {
  return configCovers(controls, 'model') ? [] : (controls?.models?.availableModels ?? []);
}

export interface SlashCommand {
  name: string;
  description: string;
  hint: string;
}

/** The advertised slash commands, normalised (no nulls, no nameless ones). */
export function slashCommands(controls: Controls | null | undefined): SlashCommand[] {
  return (controls?.commands ?? [])
    .filter((c) => c && typeof c.name === 'string' && c.name.trim() !== '')
    .map((c) => ({ name: c.name.trim().replace(/^\//, ''), description: c.description ?? '', hint: c.input?.hint ?? '' }));
}

/**
 * The palette's query when the composer text is a slash command being typed: the text starts with
 * '/' and has no whitespace yet. null otherwise.
 */
export function paletteQuery(text: string): string | null {
  const m = /^\/(\S*)$/.exec(text);
  return m ? m[1] : null;
}

/** Commands matching `query`: names that start with it first, then names that contain it. */
export function filterCommands(commands: readonly SlashCommand[], query: string): SlashCommand[] {
  const q = query.toLowerCase();
  if (!q) return commands.slice();
  const starts: SlashCommand[] = [];
  const contains: SlashCommand[] = [];
  for (const c of commands) {
    const n = c.name.toLowerCase();
    if (n.startsWith(q)) starts.push(c);
    else if (n.includes(q)) contains.push(c);
  }
  return [...starts, ...contains];
}

/** The command whose hint to show: the text is exactly "/name " (nothing typed after it yet). */
export function pendingHint(commands: readonly SlashCommand[], text: string): string {
  const m = /^\/(\S+) $/.exec(text);
  if (!m) return '';
  return commands.find((c) => c.name === m[1])?.hint ?? '';
}
