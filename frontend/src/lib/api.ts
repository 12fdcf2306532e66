// The page's one door to Go, and the only importer of the generated bindings. Every verb of the
// bound services (Sessions, Logins, History, Agents, Desktop, Rules, Registry: the app_*.go files
// of the repository root) is the one Wails generates in wailsjs/go/main/<Service>.js, re-exported
// here as it is: those modules are the one list of verbs, so a verb added, changed or removed in
// Go reaches the page with `make bindings` and needs nothing here. Each verb's contract is its Go
// doc comment (the verb table in docs/architecture.md is generated from them). What is written
// here by hand is only what the bindings cannot say:
//
// - Go marshals a nil slice as null: a verb whose result is a list, or holds lists, gives [] for
//   them (list, lists);
// - snapshots are read with the event contract's hand-written types (protocol.ts) and the change
//   ledger's with lib/changes.ts, which Wails' models describe without their unions;
// - SetConfigOption takes the value and encodes it as JSON;
// - the Rules service binds short names (List, Save…): they are re-exported by what they act on.
//
// A Go error rejects the promise with its message (a string); errorMessage() turns any rejection
// into text for the error banner.
import * as Agents from '../../wailsjs/go/main/Agents.js';
import * as History from '../../wailsjs/go/main/History.js';
import * as Registry from '../../wailsjs/go/main/Registry.js';
import * as Rules from '../../wailsjs/go/main/Rules.js';
import * as Sessions from '../../wailsjs/go/main/Sessions.js';
import type { acp, changes, hub, main, rules } from '../../wailsjs/go/models';
import type { FileDiff, FileTouch, Plan, PlannedFile, RevertRequest, SessionView, TurnView } from './changes';
import type { HistoryPart, Snapshot } from './protocol';

export * from '../../wailsjs/go/main/Agents.js';
export * from '../../wailsjs/go/main/Desktop.js';
export * from '../../wailsjs/go/main/History.js';
export * from '../../wailsjs/go/main/Logins.js';
export * from '../../wailsjs/go/main/Registry.js';
export * from '../../wailsjs/go/main/Sessions.js';
export {
  Delete as DeleteRule,
  ImportFile as ImportRules,
  MakeFromRequest as MakeRuleFromRequest,
  Save as SaveRule,
  SaveExport as SaveRulesExport,
  SetDisabled as SetRuleDisabled,
  SetPaused as SetRulesPaused,
} from '../../wailsjs/go/main/Rules.js';

// ---- null lists (the names below shadow the generated ones of `export *`) ----

type Verb = (...args: any[]) => Promise<any>;
type Result<V extends Verb> = Awaited<ReturnType<V>>;
/** The verbs of service module M whose result is a list: what list() may be given. */
type ListVerbs<M> = { [K in keyof M]: M[K] extends (...args: any[]) => Promise<readonly unknown[]> ? K : never }[keyof M];
/** The fields of T that are lists: what lists() may be given. */
type ListFields<T> = { [K in keyof T]-?: NonNullable<T[K]> extends readonly unknown[] ? K : never }[keyof T];

/**
 * Verb `name` of a generated service module whose result is a list: [] for Go's null. The verb is
 * looked up at each call, so the test doubles vitest puts in place of the modules are the ones called.
 */
function list<M extends Record<K, Verb>, K extends ListVerbs<M>>(service: M, name: K) {
  return (...args: Parameters<M[K]>): Promise<Result<M[K]>> => service[name](...args).then((v: Result<M[K]> | null) => (v ?? []) as Result<M[K]>);
}

/** Verb `name` of a generated service module whose result holds lists: [] for each of `fields` Go sent as null. */
function lists<M extends Record<K, Verb>, K extends keyof M, F extends ListFields<Result<M[K]>>>(service: M, name: K, ...fields: F[]) {
  return async (...args: Parameters<M[K]>): Promise<Result<M[K]>> => {
    const v: Result<M[K]> = { ...(await service[name](...args)) };
    for (const f of fields) v[f] ??= [] as Result<M[K]>[F];
    return v;
  };
}

export const ListAgents = list(Agents, 'ListAgents');
export const ListMCPServers = list(Agents, 'ListMCPServers');
export const ListLive = list(Sessions, 'ListLive');
export const RecentFolders = list(Sessions, 'RecentFolders');
export const ListFolderFiles = list(Sessions, 'ListFolderFiles');
export const Messages = list(Sessions, 'Messages');
export const AttachDropped = lists(Sessions, 'AttachDropped', 'files', 'problems');
export const ListHistory = list(History, 'ListHistory');
export const ListRegistry = lists(Registry, 'ListRegistry', 'items');
/** Every rule, in the order they were made, and whether all are paused ("ask me for everything"). */
export const ListRules = lists(Rules, 'List', 'rules');
export const Audit = list(Rules, 'Audit');

// ---- snapshots: the event contract's types ----

/**
 * A snapshot as the page reads it. The generated acp.Snapshot describes the same JSON (protocol.ts
 * checks that the two name the same fields) but without the event contract's unions, which the
 * page switches on: the hand-written type is the one to read it with.
 */
function snapshot(v: acp.Snapshot): Snapshot {
  return v as Snapshot;
}

export function Snapshot(sessionId: string): Promise<Snapshot> {
  return Sessions.Snapshot(sessionId).then(snapshot);
}

/** `limit` entries of a saved session from position `from` (negative: its last `limit`). */
export function OpenHistoryPart(id: string, from: number, limit: number): Promise<HistoryPart> {
  return History.OpenHistoryPart(id, from, limit).then((p) => ({ ...p, snapshot: snapshot(p.snapshot) }));
}

// ---- the change ledger: lib/changes.ts's types ----

export function SessionChanges(sessionId: string): Promise<SessionView> {
  return History.SessionChanges(sessionId).then((v) => ({ ...(v as unknown as SessionView), turns: (v?.turns ?? []) as unknown as TurnView[] }));
}

export function ChangeDiff(sessionId: string, turn: number, root: string, path: string): Promise<FileDiff> {
  return History.ChangeDiff(sessionId, turn, root, path).then((v) => ({ ...(v as unknown as FileDiff), hunks: v?.hunks ?? [] }));
}

export function FileSessions(root: string, path: string): Promise<FileTouch[]> {
  return History.FileSessions(root, path).then((v) => (v ?? []) as FileTouch[]);
}

export function PreviewRevert(req: RevertRequest): Promise<Plan> {
  return History.PreviewRevert(req as changes.RevertRequest).then(plan);
}

export function Revert(req: RevertRequest): Promise<Plan> {
  return History.Revert(req as changes.RevertRequest).then(plan);
}

export function UndoRevert(sessionId: string, revertId: string): Promise<Plan> {
  return History.UndoRevert(sessionId, revertId).then(plan);
}

function plan(v: changes.Plan): Plan {
  return { ...(v as unknown as Plan), files: (v?.files ?? []) as PlannedFile[], conflicts: v?.conflicts ?? 0, done: !!v?.done };
}

// ---- values the page encodes ----

/**
 * Sets a config option of the live session. `value` is encoded here: a string for a select, a
 * boolean for a switch. The info event that follows carries the agent's new state.
 */
export function SetConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<void> {
  return Sessions.SetConfigOption(sessionId, configId, JSON.stringify(value));
}

// ---- the generated models the components name ----

/** How the usage ledger groups turns (UsageLedger's `by`). */
export type UsageBy = 'day' | 'agent' | 'project' | 'session';
/** The usage ledger of a range, grouped one way (Go's UsageReport). */
export type UsageReport = main.UsageReport;
export const UsageLedger = lists(History, 'UsageLedger', 'rows', 'silent');

/** A rule as the Rules view lists it: what it matches in words (label), how often and when last it fired. */
export type RuleInfo = hub.RuleInfo;
/** A rule as it is saved (an empty id makes a new one). */
export type Rule = rules.Rule;
/** One decided permission request of the audit log. */
export type AuditItem = hub.AuditItem;
/** What narrows the audit log; an empty field narrows nothing. */
export type AuditFilter = main.AuditFilter;

/** One agent of the ACP registry as the Registry view lists it (what is installed of it too). */
export type RegistryItem = main.RegistryItem;
/** The registry's agents, and whether they came from the network, the cached copy or the snapshot. */
export type RegistryListing = main.RegistryListing;

/** The text to show for a rejected binding call (Go errors reject with a plain string). */
export function errorMessage(err: unknown): string {
  if (typeof err === 'string') return err || 'Unknown error';
  if (err instanceof Error) return err.message || String(err);
  if (err && typeof err === 'object' && 'message' in err) {
    const m = (err as { message: unknown }).message;
    if (typeof m === 'string' && m) return m;
  }
  try {
    return JSON.stringify(err) ?? 'Unknown error';
  } catch {
    return String(err);
  }
}
