// The transcript as the page renders it: one reactive cell per entry.
//
// The reducer (transcript.ts) produces a new immutable state per event. Rendering that state
// directly would make every event cost O(entries) in Svelte: each item of the {#each} would be
// revisited and every per-item derived value (is it the last entry? its permissions? its turn
// divider?) re-marked. TranscriptView.sync() diffs successive states by reference instead (a
// pointer loop) and writes only the signals that changed: a chunk sets one cell's `entry`, the
// cell list itself changes only when an entry is inserted, and per-cell extras are written only
// when their value changes. Saved sessions use the same path.
import type { FormValues } from '../lib/elicitation';
import type { Entry, PermissionRequest, TurnInfo } from '../lib/protocol';
import { isOpenElicitation, turnDividers, type Decision, type TranscriptState } from './transcript';

const NONE: readonly never[] = Object.freeze([]);

/** One transcript entry and what is rendered with it. */
export class Cell {
  readonly id: string;
  entry = $state.raw<Entry>() as Entry;
  isLast = $state(false);
  /** The turn that ends after this entry (divider), if any. */
  turnEnd = $state.raw<TurnInfo | null>(null);
  /** Open permission requests guarded by this tool card. */
  permissions = $state.raw<readonly PermissionRequest[]>(NONE);
  /** Closed permission requests of this tool card. */
  decisions = $state.raw<readonly Decision[]>(NONE);
  /** UI state kept here rather than in the components, which a virtualised list unmounts:
   *  a thought opened (true) or closed (false) by the person, null = open while last. */
  thoughtOpen = $state<boolean | null>(null);
  /** A tool card collapsed by the person. */
  toolCollapsed = $state(false);
  /** What the person typed into an elicitation's form (null: not yet shown). */
  elicitationValues = $state.raw<FormValues | null>(null);

  constructor(entry: Entry) {
    this.id = entry.id;
    this.entry = entry;
  }
}

function group<T extends { toolCallId: string }>(list: readonly T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of list) {
    const arr = map.get(item.toolCallId);
    if (arr) arr.push(item);
    else map.set(item.toolCallId, [item]);
  }
  return map;
}

/** Items for a tool card: by entry id (the contract), or by the agent's own tool call id. */
function forCell<T>(map: Map<string, T[]>, entry: Entry): readonly T[] {
  if (entry.kind !== 'tool') return NONE;
  return map.get(entry.id) ?? (entry.toolCallId ? map.get(entry.toolCallId) : undefined) ?? NONE;
}

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class TranscriptView {
  /** In transcript order; a new array only when entries are inserted. */
  cells = $state.raw<readonly Cell[]>(NONE);
  /** Turn ends with no entry of their own. */
  orphanTurnEnds = $state.raw<readonly TurnInfo[]>(NONE);
  /** Open permissions whose tool card does not exist (rendered at the end). */
  loosePermissions = $state.raw<readonly PermissionRequest[]>(NONE);
  /** Closed permissions whose tool card does not exist. */
  looseDecisions = $state.raw<readonly Decision[]>(NONE);
  /** Indexes of the cells with open permissions or open elicitations, ascending (a new array only when they change). */
  guarded = $state.raw<readonly number[]>(NONE);

  #prev: TranscriptState | null = null;
  #byId = new Map<string, Cell>();
  #last: Cell | null = null;
  #kindChanged = false;

  /** Brings the cells up to date with `state` (call with every new state). */
  sync(state: TranscriptState | null): void {
    const prev = this.#prev;
    this.#prev = state;
    if (!state) {
      this.#byId.clear();
      this.#last = null;
      this.cells = NONE;
      this.orphanTurnEnds = NONE;
      this.loosePermissions = NONE;
      this.looseDecisions = NONE;
      this.guarded = NONE;
      return;
    }
    if (prev && prev.sessionId !== state.sessionId) this.#byId.clear();
    const samePrev = prev !== null && prev.sessionId === state.sessionId;

    const entriesChanged = !samePrev || prev.entries !== state.entries;
    let structural = !samePrev;
    if (entriesChanged) structural = this.#syncEntries(samePrev ? prev.entries : NONE, state.entries) || structural;

    if (structural || !samePrev || prev.turns !== state.turns) this.#syncTurnEnds(state);
    if (
      structural ||
      this.#kindChanged ||
      !samePrev ||
      prev.permissions !== state.permissions ||
      prev.decisions !== state.decisions ||
      prev.elicitations !== state.elicitations
    ) {
      this.#kindChanged = false;
      this.#syncPermissions(state);
    }
  }

  /** Updates changed cells; returns true when the list of ids changed. */
  #syncEntries(old: readonly Entry[], entries: readonly Entry[]): boolean {
    let structural = old.length !== entries.length;
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i];
      if (i < old.length && old[i] === e) continue;
      const cell = this.#byId.get(e.id);
      if (cell) {
        if (cell.entry.kind !== e.kind) this.#kindChanged = true;
        cell.entry = e;
        if (i >= old.length || old[i].id !== e.id) structural = true;
      } else {
        this.#byId.set(e.id, new Cell(e));
        structural = true;
      }
    }
    if (structural) {
      const cells = entries.map((e) => this.#byId.get(e.id)!);
      this.cells = cells;
      const last = cells.length > 0 ? cells[cells.length - 1] : null;
      if (last !== this.#last) {
        if (this.#last) this.#last.isLast = false;
        if (last) last.isLast = true;
        this.#last = last;
      }
    }
    return structural;
  }

  #syncTurnEnds(state: TranscriptState): void {
    const { after, orphans } = turnDividers(state);
    for (const cell of this.cells) {
      const t = after.get(cell.id) ?? null;
      if (cell.turnEnd !== t) cell.turnEnd = t;
    }
    if (!sameList(this.orphanTurnEnds, orphans)) this.orphanTurnEnds = orphans.length ? orphans : NONE;
  }

  #syncPermissions(state: TranscriptState): void {
    const perms = group(state.permissions);
    const decs = group(state.decisions);
    const claimed = new Set<string>();
    const guarded: number[] = [];
    const cells = this.cells;
    for (let i = 0; i < cells.length; i++) {
      const cell = cells[i];
      const e = cell.entry;
      // An open elicitation is a decision waiting too: its row stays rendered, like a guarded card's.
      if (e.kind === 'elicitation' && isOpenElicitation(e)) guarded.push(i);
      if (e.kind !== 'tool') continue;
      claimed.add(e.id);
      if (e.toolCallId) claimed.add(e.toolCallId);
      const p = forCell(perms, e);
      if (p.length > 0) guarded.push(i);
      if (!sameList(cell.permissions, p)) cell.permissions = p;
      const d = forCell(decs, e);
      if (!sameList(cell.decisions, d)) cell.decisions = d;
    }
    if (!sameList(this.guarded, guarded)) this.guarded = guarded.length ? guarded : NONE;
    const loosePerms = state.permissions.filter((p) => !claimed.has(p.toolCallId));
    if (!sameList(this.loosePermissions, loosePerms)) this.loosePermissions = loosePerms.length ? loosePerms : NONE;
    const looseDecs = state.decisions.filter((d) => !claimed.has(d.toolCallId));
    if (!sameList(this.looseDecisions, looseDecs)) this.looseDecisions = looseDecs.length ? looseDecs : NONE;
  }
}
