// The transcript reducer: apply(state, event) => state, and fromSnapshot(snapshot).
//
// Pure and immutable: apply never mutates its input; it returns a new state object in which only
// the parts an event touches are new. A chunk creates one new entry object and a shallow copy of
// the entries array; every other entry keeps its identity, so keyed {#each} blocks (by entry.id)
// re-render only that entry. Unchanged collections (permissions, turns, ...) keep their identity.
// applyAll folds a run of events (a message of the Go side's batch) with one copy of the entries
// array for the whole run instead of one per event: O(entries + events), not O(entries x events).
//
// Sequencing (seq gaps, stale events) is the store's business (see session.svelte.ts); apply
// records event.seq and trusts it.
import type {
  Controls,
  DecisionSummary,
  Entry,
  PermissionDoneEvent,
  PermissionRequest,
  QueuedPrompt,
  SessionEvent,
  SessionState,
  Snapshot,
  TurnInfo,
} from '../lib/protocol';

/** A permission request that was answered or cancelled; shown as a small line in its card. */
export interface Decision {
  requestId: string;
  toolCallId: string;
  outcome: 'selected' | 'cancelled';
  optionId?: string;
  optionKind?: string;
  optionName?: string;
  /** What the chosen option means, as Go said (allow | reject). */
  verdict?: string;
  /** user | rule | cancel | cli, when known (snapshots and permission_done carry it). */
  decidedBy?: string;
  /** The rule that decided (decidedBy rule) and its words: "reads in ~/src/app for Claude Code". */
  ruleId?: string;
  ruleLabel?: string;
}

export interface TranscriptState {
  sessionId: string;
  /** seq of the last applied event (or of the snapshot). */
  seq: number;
  /** '' for a saved session. */
  state: SessionState | '';
  message?: string;
  agentName: string;
  /** The installed version of an agent from the ACP registry, when it is one. */
  agentVersion?: string;
  cwd: string;
  title: string;
  /** In transcript order. */
  entries: readonly Entry[];
  /**
   * entry id -> position in `entries`. Append-only and shared between successive states (entries
   * are never removed or moved), so always validate a hit with entryIndex().
   */
  index: Map<string, number>;
  /** Open permission requests, in arrival order. */
  permissions: readonly PermissionRequest[];
  /** Closed permission requests, in closing order. */
  decisions: readonly Decision[];
  /**
   * The entry ids of the open elicitations (state "open"), in arrival order: decisions waiting on
   * the person like permissions. A new array only when one opens or settles.
   */
  elicitations: readonly string[];
  /** Turns by turn number ascending; stopReason is set once the turn ended. */
  turns: readonly TurnInfo[];
  stderr?: string;
  /** What the agent lets the user pick; the pickers (issue 5) render it. */
  controls?: Controls;
  /** The prompts sent during a turn, waiting to be sent, in order (absent: none). */
  queue?: readonly QueuedPrompt[];
}

export interface StateInit {
  state?: SessionState | '';
  agentName?: string;
  agentVersion?: string;
  cwd?: string;
  title?: string;
}

export function emptyState(sessionId: string, init: StateInit = {}): TranscriptState {
  return {
    sessionId,
    seq: 0,
    state: init.state ?? 'starting',
    agentName: init.agentName ?? '',
    ...(init.agentVersion ? { agentVersion: init.agentVersion } : {}),
    cwd: init.cwd ?? '',
    title: init.title ?? '',
    entries: [],
    index: new Map(),
    permissions: [],
    decisions: [],
    elicitations: [],
    turns: [],
  };
}

/** Position of entry `id` in state.entries, or -1. */
export function entryIndex(state: TranscriptState, id: string): number {
  const i = state.index.get(id);
  if (i !== undefined && i < state.entries.length && state.entries[i].id === id) return i;
  // Every entry the reducer and fromSnapshot place is indexed, so when the index holds at least
  // as many ids as there are entries, a miss is a new entry: no scan (a flood of new entries
  // would otherwise cost a scan each, quadratic in the transcript).
  if (i === undefined && state.index.size >= state.entries.length) return -1;
  // The shared index may be stale for states built by hand (tests); fall back.
  for (let j = state.entries.length - 1; j >= 0; j--) {
    if (state.entries[j].id === id) {
      state.index.set(id, j);
      return j;
    }
  }
  return -1;
}

/** True when `event` does not directly follow the state's last seq (the store resyncs). */
export function isGap(state: TranscriptState, event: SessionEvent): boolean {
  return event.seq !== state.seq + 1;
}

/** True when `event` was already folded into the state (e.g. it predates a snapshot). */
export function isStale(state: TranscriptState, event: SessionEvent): boolean {
  return event.seq <= state.seq;
}

/**
 * Arrays made during one applyAll, which it may change in place: no state outside the fold has
 * seen them. Null: copy on every change (apply).
 */
type Owned = WeakSet<readonly unknown[]> | null;

/** The state's entries as an array this fold may change: the array itself if it made it, else a copy. */
function writableEntries(state: TranscriptState, owned: Owned): Entry[] {
  if (owned?.has(state.entries)) return state.entries as Entry[];
  const copy = state.entries.slice();
  owned?.add(copy);
  return copy;
}

function upsertEntry(state: TranscriptState, entry: Entry, owned: Owned = null): TranscriptState {
  const i = entryIndex(state, entry.id);
  const entries = writableEntries(state, owned);
  if (i >= 0) {
    entries[i] = entry;
  } else {
    state.index.set(entry.id, entries.length);
    entries.push(entry);
  }
  return { ...state, entries, elicitations: openElicitations(state.elicitations, entry) };
}

/** True for an elicitation entry waiting on the person. */
export function isOpenElicitation(entry: Entry): boolean {
  return entry.kind === 'elicitation' && entry.elicitation?.state === 'open';
}

/** `open` after `entry` was upserted: the same array unless it opened or settled. */
function openElicitations(open: readonly string[], entry: Entry): readonly string[] {
  const was = open.length > 0 && open.includes(entry.id);
  const is = isOpenElicitation(entry);
  if (was === is) return open;
  return is ? [...open, entry.id] : open.filter((id) => id !== entry.id);
}

function currentTurn(state: TranscriptState): number {
  const last = state.entries[state.entries.length - 1];
  const t = state.turns[state.turns.length - 1];
  return Math.max(last?.turn ?? 0, t?.turn ?? 0);
}

function appendChunk(state: TranscriptState, entryId: string, text: string, owned: Owned = null): TranscriptState {
  const i = entryIndex(state, entryId);
  if (i < 0) {
    // A chunk for an entry we never saw: keep the text rather than drop it.
    return upsertEntry(state, { id: entryId, kind: 'agent', turn: currentTurn(state), text }, owned);
  }
  const old = state.entries[i];
  const entries = writableEntries(state, owned);
  entries[i] = { ...old, text: (old.text ?? '') + text };
  return { ...state, entries };
}

function openPermission(state: TranscriptState, req: PermissionRequest): TranscriptState {
  const clean: PermissionRequest = {
    requestId: req.requestId,
    toolCallId: req.toolCallId,
    title: req.title,
    options: req.options ?? [],
    ...(req.toolKind ? { toolKind: req.toolKind } : {}),
    ...(req.ruleOptions?.length ? { ruleOptions: req.ruleOptions } : {}),
  };
  const i = state.permissions.findIndex((p) => p.requestId === req.requestId);
  const permissions = state.permissions.slice();
  if (i >= 0) permissions[i] = clean;
  else permissions.push(clean);
  return { ...state, permissions };
}

/**
 * Closes a request with the decision Go sends in permission_done (the option chosen with its
 * name, kind and verdict, who decided, the rule): nothing is looked up here. One a rule answered
 * was never open here (no permission event came first): its decision names the tool card, so the
 * card still gets it.
 */
function closePermission(state: TranscriptState, ev: PermissionDoneEvent): TranscriptState {
  const { requestId, decision: sent } = ev;
  const req = state.permissions.find((p) => p.requestId === requestId);
  const decision = toDecision({ ...sent, toolCallId: sent.toolCallId || req?.toolCallId || '' });
  return {
    ...state,
    permissions: req ? state.permissions.filter((p) => p.requestId !== requestId) : state.permissions,
    decisions: [...state.decisions.filter((d) => d.requestId !== requestId), decision],
  };
}

function endTurn(state: TranscriptState, info: TurnInfo): TranscriptState {
  const turns = state.turns.filter((t) => t.turn !== info.turn);
  turns.push(info);
  turns.sort((a, b) => a.turn - b.turn);
  return { ...state, turns };
}

/** Folds one event into the state. Events for another session leave the state unchanged. */
export function apply(state: TranscriptState, event: SessionEvent): TranscriptState {
  return applyOwned(state, event, null);
}

function applyOwned(state: TranscriptState, event: SessionEvent, owned: Owned): TranscriptState {
  if (event.sessionId !== state.sessionId) return state;
  let next: TranscriptState;
  switch (event.kind) {
    case 'state':
      next = { ...state, state: event.state, message: event.message ?? undefined };
      break;
    case 'info':
      next = {
        ...state,
        title: event.title ?? '',
        ...(event.controls ? { controls: event.controls } : {}),
        ...(event.agentVersion ? { agentVersion: event.agentVersion } : {}),
      };
      break;
    case 'queue':
      next = { ...state, queue: event.queue ?? [] };
      break;
    case 'entry':
      next = upsertEntry(state, event.entry, owned);
      break;
    case 'chunk':
      next = appendChunk(state, event.entryId, event.text ?? '', owned);
      break;
    case 'permission':
      next = openPermission(state, event);
      break;
    case 'permission_done':
      next = closePermission(state, event);
      break;
    case 'turn_end':
      next = endTurn(state, {
        // Go omits a zero turn (omitempty): fall back to the turn in progress.
        turn: event.turn ?? currentTurn(state),
        stopReason: event.stopReason,
        ...(event.message ? { message: event.message } : {}),
        ...(event.receipt ? { receipt: event.receipt } : {}),
      });
      break;
    default:
      // A kind this build does not know: record the seq, render nothing.
      next = { ...state };
  }
  next.seq = event.seq;
  return next;
}

/**
 * Folds events in order into one new state, equal to apply() over each; `state` is not changed.
 * The intermediate states are not kept, so the arrays they share are changed in place.
 */
export function applyAll(state: TranscriptState, events: Iterable<SessionEvent>): TranscriptState {
  const owned: Owned = new WeakSet();
  let s = state;
  for (const e of events) s = applyOwned(s, e, owned);
  return s;
}

/** Builds a state from a Snapshot (a live session's or a saved one's). */
export function fromSnapshot(snap: Snapshot): TranscriptState {
  const entries: Entry[] = [];
  const index = new Map<string, number>();
  for (const e of snap.entries ?? []) {
    const i = index.get(e.id);
    if (i !== undefined) entries[i] = e;
    else {
      index.set(e.id, entries.length);
      entries.push(e);
    }
  }
  return {
    sessionId: snap.sessionId,
    seq: snap.seq ?? 0,
    state: snap.state ?? '',
    ...(snap.message ? { message: snap.message } : {}),
    agentName: snap.agentName ?? '',
    ...(snap.agentVersion ? { agentVersion: snap.agentVersion } : {}),
    cwd: snap.cwd ?? '',
    title: snap.title ?? '',
    entries,
    index,
    permissions: (snap.permissions ?? []).map((p) => ({ ...p, options: p.options ?? [] })),
    decisions: (snap.decisions ?? []).map(toDecision),
    elicitations: entries.filter(isOpenElicitation).map((e) => e.id),
    turns: [...(snap.turns ?? [])].sort((a, b) => a.turn - b.turn),
    ...(snap.stderr ? { stderr: snap.stderr } : {}),
    ...(snap.controls ? { controls: snap.controls } : {}),
    ...(snap.queue?.length ? { queue: snap.queue } : {}),
  };
}

/** A snapshot's decision as the transcript keeps it (absent fields left out). */
function toDecision(d: DecisionSummary): Decision {
  return {
    requestId: d.requestId,
    toolCallId: d.toolCallId,
    outcome: d.outcome === 'selected' ? 'selected' : 'cancelled',
    ...(d.optionId ? { optionId: d.optionId } : {}),
    ...(d.optionKind ? { optionKind: d.optionKind } : {}),
    ...(d.optionName ? { optionName: d.optionName } : {}),
    ...(d.verdict ? { verdict: d.verdict } : {}),
    ...(d.decidedBy ? { decidedBy: d.decidedBy } : {}),
    ...(d.ruleId ? { ruleId: d.ruleId } : {}),
    ...(d.ruleLabel ? { ruleLabel: d.ruleLabel } : {}),
  };
}

/** Who decided, in the engine's words (user, cancel) and the audit log's (person, stop), for each. */
const DECIDED_BY: Record<string, string> = {
  user: 'by you',
  person: 'by you',
  cancel: 'cancelled',
  stop: 'by Stop',
  cli: 'by --permissions',
};

/**
 * Who decided a permission, in words, for the receipt and the audit log: "by you", "by rule:
 * reads in ~/src/app for Claude Code" (or "by a rule" when its words are unknown), "by Stop",
 * "by --permissions"; an unknown decider is named as it came.
 */
export function decidedByWords(by: string | null | undefined, rule: string | null | undefined): string {
  if (by === 'rule') return rule ? `by rule: ${rule}` : 'by a rule';
  return DECIDED_BY[by ?? ''] ?? (by ? `by ${by}` : '');
}

/**
 * Human text for a closed permission: "Allowed once", "Rejected", "Cancelled", ...; a rule's
 * decision names the rule ("Allowed by rule: reads in ~/src/app for Claude Code"), the CLI's
 * --permissions says so.
 */
export function decisionLabel(d: Decision): string {
  if (d.outcome === 'cancelled') return 'Cancelled';
  if (d.decidedBy === 'rule') {
    const verb = d.verdict === 'allow' ? 'Allowed' : d.verdict === 'reject' ? 'Rejected' : 'Answered';
    return d.ruleLabel ? `${verb} by rule: ${d.ruleLabel}` : `${verb} by a rule`;
  }
  const said = optionWords(d);
  return d.decidedBy === 'cli' ? `${said} (by --permissions)` : said;
}

/** What the option chosen says: "Allowed once", "Rejected always", "Selected: <name>". */
function optionWords(d: Decision): string {
  switch (d.optionKind) {
    case 'allow_once':
      return 'Allowed once';
    case 'allow_always':
      return 'Allowed always';
    case 'reject_once':
      return 'Rejected';
    case 'reject_always':
      return 'Rejected always';
    default:
      return d.optionName ? `Selected: ${d.optionName}` : 'Answered';
  }
}

/**
 * Ended turns keyed by the id of the last entry of that turn (where the divider goes). A
 * continued session's boundary carries the last saved turn's number but comes after that turn
 * ended, so it never takes the divider.
 */
export function turnDividers(state: Pick<TranscriptState, 'entries' | 'turns'>): {
  after: Map<string, TurnInfo>;
  orphans: TurnInfo[];
} {
  const after = new Map<string, TurnInfo>();
  const orphans: TurnInfo[] = [];
  const ended = state.turns.filter((t) => t.stopReason);
  if (ended.length === 0) return { after, orphans };
  const lastOfTurn = new Map<number, string>();
  for (const e of state.entries) if (e.kind !== 'boundary') lastOfTurn.set(e.turn, e.id);
  for (const t of ended) {
    const id = lastOfTurn.get(t.turn);
    if (id !== undefined) after.set(id, t);
    else orphans.push(t);
  }
  return { after, orphans };
}

/** The text of the last prompt the person sent (the last user entry), '' when none. */
export function lastUserText(entries: readonly Entry[]): string {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e.kind === 'user' && e.text) return e.text;
  }
  return '';
}
