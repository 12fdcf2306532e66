// The ONLY importer of the generated Go bindings: one module per bound service (Sessions,
// Logins, History, Agents, Desktop, Rules, Registry: the app_*.go files of the repository root). Components and
// stores call these wrappers, which give the bridge the types of protocol.ts and agents.ts
// (the generated models, and the hand-written event contract for snapshots). A Go error
// rejects the promise with its message (a string); errorMessage() turns any rejection into text
// for the error banner.
import * as Agents from '../../wailsjs/go/main/Agents.js';
import * as Desktop from '../../wailsjs/go/main/Desktop.js';
import * as History from '../../wailsjs/go/main/History.js';
import * as Logins from '../../wailsjs/go/main/Logins.js';
import * as Registry from '../../wailsjs/go/main/Registry.js';
import * as Rules from '../../wailsjs/go/main/Rules.js';
import * as Sessions from '../../wailsjs/go/main/Sessions.js';
import type { acp, changes, hub, main, rules } from '../../wailsjs/go/models';
import type { FileDiff, FileTouch, Plan, PlannedFile, RevertRequest, SessionView, TurnView } from './changes';
import type { AgentSettings, AuthPrompt, ImportResult, MCPSettings } from './agents';
import type { AgentInfo, AgentSessionPage, Attachment, AttentionKind, DroppedFiles, FolderCheck, FolderFile, HistoryItem, HistoryPart, HistoryStatus, JournalLine, LiveSession, SessionInfo, Snapshot } from './protocol';

/**
 * A snapshot as the page reads it. The generated acp.Snapshot describes the same JSON (protocol.ts
 * checks that the two name the same fields) but without the event contract's unions, which the
 * page switches on: the hand-written type is the one to read it with.
 */
function snapshot(v: acp.Snapshot): Snapshot {
  return v as Snapshot;
}

export function ListAgents(): Promise<AgentInfo[]> {
  return Agents.ListAgents().then((v) => v ?? []);
}

/** What the user must know about the history at start-up (unavailable, or a file set aside), or "". */
export function HistoryNotice(): Promise<string> {
  return History.HistoryNotice().then((v) => v ?? '');
}

/** Whether the history is being saved now; changes arrive later through onHistoryStatus. */
export function HistoryStatus(): Promise<HistoryStatus> {
  return History.HistoryStatus();
}

/**
 * Saves now: what is pending and a whole copy of every live session. Rejects, saying why, when the
 * history still cannot be written.
 */
export function RetryHistory(): Promise<HistoryStatus> {
  return History.RetryHistory();
}

export function DefaultFolder(): Promise<string> {
  return Sessions.DefaultFolder().then((v) => v ?? '');
}

/** The project folders of saved sessions that still exist, agentId's own first, the latest first (at most 8). */
export function RecentFolders(agentId: string): Promise<string[]> {
  return Sessions.RecentFolders(agentId).then((v) => v ?? []);
}

/** Opens the system's folder dialog at start; the folder chosen, or '' when the person cancelled. */
export function BrowseFolder(start: string): Promise<string> {
  return Sessions.BrowseFolder(start).then((v) => v ?? '');
}

/**
 * A folder as StartSession would get it (~ expanded, absolute), and whether it is broad: `broad`
 * is '' or says that the folder is the home folder itself or /, which the page confirms before a
 * start. Rejects, worded for the window, when the folder does not exist.
 */
export function CheckFolder(cwd: string): Promise<FolderCheck> {
  return Sessions.CheckFolder(cwd);
}

/** The live sessions of this run, in start order (a reloaded page takes them up again). */
export function ListLive(): Promise<LiveSession[]> {
  return Sessions.ListLive().then((v) => v ?? []);
}

/** Ends a live session (a running turn is stopped first); resolves once its agent has gone. */
export function CloseSession(sessionId: string): Promise<void> {
  return Sessions.CloseSession(sessionId).then(() => undefined);
}

/** Ends a session that is still starting (its agent killed, no history row); resolves once it has gone. */
export function CancelStart(sessionId: string): Promise<void> {
  return Sessions.CancelStart(sessionId).then(() => undefined);
}

/** Resolves at once (state 'starting'); the session's events follow. */
export function StartSession(agentId: string, cwd: string, dirs: string[] = []): Promise<SessionInfo> {
  return Sessions.StartSession(agentId, cwd, dirs);
}

/**
 * Resolves when the prompt is sent, or queued during a turn (a queue event follows); the turn ends
 * with a turn_end event.
 */
export function Prompt(sessionId: string, text: string): Promise<void> {
  return Sessions.Prompt(sessionId, text).then(() => undefined);
}

// ---- a running terminal of the session's agent (app_terminals.go) ----

/** Sends text to the terminal as typed ("\r" ends a line); at most 4 KiB at a time. Rejects when it is not running. */
export function TerminalInput(sessionId: string, terminalId: string, text: string): Promise<void> {
  return Sessions.TerminalInput(sessionId, terminalId, text).then(() => undefined);
}

/** Sends Ctrl-C to the terminal: its command gets SIGINT. */
export function TerminalInterrupt(sessionId: string, terminalId: string): Promise<void> {
  return Sessions.TerminalInterrupt(sessionId, terminalId).then(() => undefined);
}

// ---- the prompt queue (app_queue.go): Prompt and PromptWith queue a prompt during a turn ----

/** Replaces a queued prompt's text (its attachments stay). */
export function EditQueued(sessionId: string, itemId: string, text: string): Promise<void> {
  return Sessions.EditQueued(sessionId, itemId, text).then(() => undefined);
}

/** Takes a queued prompt out of the queue unsent. */
export function RemoveQueued(sessionId: string, itemId: string): Promise<void> {
  return Sessions.RemoveQueued(sessionId, itemId).then(() => undefined);
}

/** Sends a queued prompt next: at once when idle, else after stopping the running turn. */
export function SendQueuedNow(sessionId: string, itemId: string): Promise<void> {
  return Sessions.SendQueuedNow(sessionId, itemId).then(() => undefined);
}

/**
 * Delivers a queued prompt into the running turn (controls.canSteer). Rejects, with the prompt kept
 * queued, when the agent refused or cannot steer.
 */
export function Steer(sessionId: string, itemId: string): Promise<void> {
  return Sessions.Steer(sessionId, itemId).then(() => undefined);
}

export function Stop(sessionId: string): Promise<void> {
  return Sessions.Stop(sessionId).then(() => undefined);
}

export function HardStop(sessionId: string): Promise<void> {
  return Sessions.HardStop(sessionId).then(() => undefined);
}

/**
 * Restarts an exited agent and continues its conversation: resolves to "resumed" (the agent restored
 * its context), "replayed" (it replayed it), "summarised" (a new agent session, given a summary of
 * the earlier turns) or "new" (a new agent session; there were no earlier turns).
 */
export function ContinueSession(sessionId: string): Promise<string> {
  return Sessions.ContinueSession(sessionId);
}

/**
 * Makes a saved session live again under its id, with its agent in its folder (the agent resumes
 * it, loads it, or is given a summary: a boundary entry says which). Resolves once it is starting;
 * events follow as for StartSession.
 */
export function ContinueSaved(sessionId: string): Promise<SessionInfo> {
  return Sessions.ContinueSaved(sessionId);
}

/**
 * Starts a new session branched from session sessionId (saved or live, left as it is) at its
 * turn `turn`, with the transcript up to and with that turn. Resolves once it is starting; events
 * follow as for StartSession.
 */
export function ForkSession(sessionId: string, turn: number): Promise<SessionInfo> {
  return Sessions.ForkSession(sessionId, turn);
}

/**
 * Starts a new session branched from session sessionId before its turn `turn`, and sends `text`
 * (that turn's message, edited) as its first prompt. The original is untouched.
 */
export function RerunEdited(sessionId: string, turn: number, text: string): Promise<SessionInfo> {
  return Sessions.RerunEdited(sessionId, turn, text);
}

/** Starts a session of agent agentId given the whole transcript of session sessionId, linked to it. */
export function ContinueInAgent(sessionId: string, agentId: string): Promise<SessionInfo> {
  return Sessions.ContinueInAgent(sessionId, agentId);
}

/** One page of the sessions the agent of live session sessionId keeps (session/list); cursor "" for the first. */
export function ListAgentSessions(sessionId: string, cursor: string): Promise<AgentSessionPage> {
  return Sessions.ListAgentSessions(sessionId, cursor);
}

/** Opens one of the agent's own sessions here (the agent loads or resumes it); one the history holds is continued instead. */
export function OpenAgentSession(sessionId: string, agentSessionId: string, cwd: string, title: string): Promise<SessionInfo> {
  return Sessions.OpenAgentSession(sessionId, agentSessionId, cwd, title);
}

/** Deletes the agent's own copy of one of its sessions (session/delete); the history is not touched. */
export function DeleteAgentSession(sessionId: string, agentSessionId: string): Promise<void> {
  return Sessions.DeleteAgentSession(sessionId, agentSessionId).then(() => undefined);
}

/** Asks the agent of live session sessionId to forget its login (logout). */
export function LogoutAgent(sessionId: string): Promise<void> {
  return Sessions.LogoutAgent(sessionId).then(() => undefined);
}

export function AnswerPermission(sessionId: string, requestId: string, optionId: string): Promise<void> {
  return Sessions.AnswerPermission(sessionId, requestId, optionId).then(() => undefined);
}

/**
 * Answers the open elicitation requestId (its entry's elicitation.requestId) with accept (a
 * form's values by field name, checked against the agent's schema: a refusal names the field),
 * decline or cancel. A url elicitation's accept means the person agreed to open it.
 */
export function AnswerElicitation(
  sessionId: string,
  requestId: string,
  action: 'accept' | 'decline' | 'cancel',
  content: Record<string, unknown> = {},
): Promise<void> {
  return Sessions.AnswerElicitation(sessionId, requestId, action, content).then(() => undefined);
}

/**
 * Opens the URL of the url elicitation requestId in the system browser: the agent's URL, read
 * by the backend (open or accepted); it does not answer the request (AnswerElicitation does).
 */
export function OpenElicitationURL(sessionId: string, requestId: string): Promise<void> {
  return Sessions.OpenElicitationURL(sessionId, requestId).then(() => undefined);
}

export function Snapshot(sessionId: string): Promise<Snapshot> {
  return Sessions.Snapshot(sessionId).then(snapshot);
}

export function ListHistory(query: string): Promise<HistoryItem[]> {
  return History.ListHistory(query).then((v) => v ?? []);
}

/** `limit` entries of a saved session from position `from` (negative: its last `limit`). */
export function OpenHistoryPart(id: string, from: number, limit: number): Promise<HistoryPart> {
  return History.OpenHistoryPart(id, from, limit).then((p) => ({ ...p, snapshot: snapshot(p.snapshot) }));
}

/** A saved session as Markdown ("md") or JSON ("json"). */
export function ExportHistory(id: string, format: 'md' | 'json'): Promise<string> {
  return History.ExportHistory(id, format);
}

/**
 * Saves a saved session to a file the user picks in the system's save dialog, as Markdown ("md")
 * or JSON ("json"). Resolves to the path written, or "" when the user cancelled; rejects saying
 * what failed and what to do.
 */
export function SaveHistoryExport(id: string, format: 'md' | 'json'): Promise<string> {
  return History.SaveHistoryExport(id, format).then((v) => v ?? '');
}

/** How the usage ledger groups turns. */
export type UsageBy = 'day' | 'agent' | 'project' | 'session';
/** The usage ledger of a range, grouped one way (Go's UsageReport). */
export type UsageReport = main.UsageReport;

/**
 * The usage ledger: turns, time, tokens and cost of the saved sessions started since `since`
 * ("all", "7d", "30d", a date 2006-01-02), grouped by `by`. Labels are data (titles, paths):
 * show them as text.
 */
export function UsageLedger(since: string, by: UsageBy): Promise<UsageReport> {
  return History.UsageLedger(since, by).then((r) => ({ ...r, rows: r.rows ?? [], silent: r.silent ?? [] }));
}

/**
 * Saves the usage ledger as CSV where the user picks in the save dialog. Resolves to the path
 * written, or "" when the user cancelled.
 */
export function SaveUsageCSV(since: string, by: UsageBy): Promise<string> {
  return History.SaveUsageCSV(since, by).then((v) => v ?? '');
}

/** Deletes a saved session with its transcript and journal. */
export function DeleteHistory(id: string): Promise<void> {
  return History.DeleteHistory(id).then(() => undefined);
}

/** Gives a saved session a title of the user's choosing. */
export function RenameHistory(id: string, title: string): Promise<void> {
  return History.RenameHistory(id, title).then(() => undefined);
}

// ---- the change ledger (app_changes.go; types in lib/changes.ts) ----

/**
 * What every turn of a session (live or saved) changed on disk, with the reverts made since.
 * Rejects, worded for the window, when the session is not in the history.
 */
export function SessionChanges(sessionId: string): Promise<SessionView> {
  return History.SessionChanges(sessionId).then((v) => ({ ...(v as unknown as SessionView), turns: (v?.turns ?? []) as unknown as TurnView[] }));
}

/** One file of a turn: its text before and after (none when binary or too big) and its hunks. */
export function ChangeDiff(sessionId: string, turn: number, root: string, path: string): Promise<FileDiff> {
  return History.ChangeDiff(sessionId, turn, root, path).then((v) => ({ ...(v as unknown as FileDiff), hunks: v?.hunks ?? [] }));
}

/** The turns of saved sessions that changed file `path` beneath folder `root`, newest first. */
export function FileSessions(root: string, path: string): Promise<FileTouch[]> {
  return History.FileSessions(root, path).then((v) => (v ?? []) as FileTouch[]);
}

/** What Revert would do with req, conflicts included; changes nothing. */
export function PreviewRevert(req: RevertRequest): Promise<Plan> {
  return History.PreviewRevert(req as changes.RevertRequest).then(plan);
}

/**
 * Carries out req. Writes nothing when a file conflicts (the plan comes back with its conflicts,
 * `done` false); else the revert is recorded (`revertId`) and UndoRevert undoes it. Rejects while
 * a turn of the session runs.
 */
export function Revert(req: RevertRequest): Promise<Plan> {
  return History.Revert(req as changes.RevertRequest).then(plan);
}

/** Puts back what revert revertId replaced, with the same conflict check (itself recorded). */
export function UndoRevert(sessionId: string, revertId: string): Promise<Plan> {
  return History.UndoRevert(sessionId, revertId).then(plan);
}

function plan(v: changes.Plan): Plan {
  return { ...(v as unknown as Plan), files: (v?.files ?? []) as PlannedFile[], conflicts: v?.conflicts ?? 0, done: !!v?.done };
}

/**
 * Sets a config option of the live session. `value` is encoded here: a string for a select, a
 * boolean for a switch. The info event that follows carries the agent's new state.
 */
export function SetConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<void> {
  return Sessions.SetConfigOption(sessionId, configId, JSON.stringify(value)).then(() => undefined);
}

/** Legacy mode switch (agents without config options). */
export function SetMode(sessionId: string, modeId: string): Promise<void> {
  return Sessions.SetMode(sessionId, modeId).then(() => undefined);
}

/** Legacy model switch (agents without config options). */
export function SetModel(sessionId: string, modelId: string): Promise<void> {
  return Sessions.SetModel(sessionId, modelId).then(() => undefined);
}

/**
 * Like Prompt, with attachments: files of the session folder and pasted images. Rejects, naming
 * the attachment and what to do, when one cannot be sent (nothing is sent then).
 */
export function PromptWith(sessionId: string, text: string, attachments: Attachment[]): Promise<void> {
  return Sessions.PromptWith(sessionId, text, attachments).then(() => undefined);
}

/**
 * Asks the person, in the system's open dialog, for a file outside the session's folders and lets
 * the session attach it; resolves with the file, or one with an empty path when they cancelled.
 */
export function ChooseFileElsewhere(sessionId: string): Promise<FolderFile> {
  return Sessions.ChooseFileElsewhere(sessionId);
}

/**
 * Attaches files the person dropped on the window (the paths of an `app:files-dropped` event) to
 * the live session: those in its folders by their path relative to the working folder, others by
 * their real path. Resolves with the files and, one line each, why any other was not attached;
 * rejects only when the session is not live.
 */
export function AttachDropped(sessionId: string, paths: string[]): Promise<DroppedFiles> {
  return Sessions.AttachDropped(sessionId, paths).then((d) => ({ files: d.files ?? [], problems: d.problems ?? [] }));
}

/** Up to 50 files of the live session's folder matching query, best first (attachment picker). */
export function ListFolderFiles(sessionId: string, query: string): Promise<FolderFile[]> {
  return Sessions.ListFolderFiles(sessionId, query).then((v) => v ?? []);
}

/** The raw JSON-RPC traffic of a live or saved session, oldest first (protocol inspector). */
export function Messages(sessionId: string): Promise<JournalLine[]> {
  return Sessions.Messages(sessionId).then((v) => v ?? []);
}

/**
 * Asks for the user's attention while the window is not focused: an OS notification for the
 * session (rate-limited on the Go side) and the window's urgency hint. Resolves at once; rejects
 * for an unknown kind or a session that is not live.
 */
export function NotifyAttention(sessionId: string, kind: AttentionKind, agent: string, title: string): Promise<void> {
  return Desktop.NotifyAttention(sessionId, kind, agent, title).then(() => undefined);
}

/**
 * Opens a file of a session (a tool call's location) at line (0: none) in the person's editor or
 * the desktop's default application. Rejects, with words to show, for a path outside the
 * session's folders, not a file, or an editor that could not start.
 */
export function OpenInEditor(sessionId: string, path: string, line: number): Promise<void> {
  return Desktop.OpenInEditor(sessionId, path, line).then(() => undefined);
}

/** The window has the focus again: withdraws the notifications and clears the urgency hint. */
export function AttentionSeen(): Promise<void> {
  return Desktop.AttentionSeen().then(() => undefined);
}

/** Quits after the user confirmed it: every agent is stopped on the way out. */
export function ConfirmQuit(): Promise<void> {
  return Desktop.ConfirmQuit().then(() => undefined);
}

/** The user chose not to quit: the next close asks again. */
export function CancelQuit(): Promise<void> {
  return Desktop.CancelQuit().then(() => undefined);
}

/** Used only by the smoke test's injected script, never by the UI. */
export function SelfTestDone(report: string): Promise<void> {
  return Desktop.SelfTestDone(report).then(() => undefined);
}

/** Why the custom agents file cannot be read, or "" (said once, at start-up). */
export function AgentsNotice(): Promise<string> {
  return Agents.AgentsNotice().then((v) => v ?? '');
}

/** A custom agent for the editor; secrets say whether they are set, never their value. */
export function GetAgent(id: string): Promise<AgentSettings> {
  return Agents.GetAgent(id);
}

/** Adds (id '') or replaces a custom agent; rejects with the reason when it is not valid. */
export function SaveAgent(settings: AgentSettings): Promise<AgentInfo> {
  return Agents.SaveAgent(settings);
}

/** Deletes a custom agent and its secrets. */
export function DeleteAgent(id: string): Promise<void> {
  return Agents.DeleteAgent(id).then(() => undefined);
}

/** The configured MCP servers; secrets say whether they are set, never their value. */
export function ListMCPServers(): Promise<MCPSettings[]> {
  return Agents.ListMCPServers().then((v) => v ?? []);
}

/** Adds or replaces (by `was`) an MCP server; rejects with the reason when it is not valid. */
export function SaveMCPServer(settings: MCPSettings): Promise<MCPSettings> {
  return Agents.SaveMCPServer(settings);
}

/** Deletes an MCP server and its secrets. */
export function DeleteMCPServer(name: string): Promise<void> {
  return Agents.DeleteMCPServer(name).then(() => undefined);
}

/** Adds the agents of Zed's settings (comments and trailing commas allowed). */
export function ImportZedAgents(text: string): Promise<ImportResult> {
  return Agents.ImportZedAgents(text);
}

/** The login methods of a session that failed because its agent needs a login (none otherwise). */
export function SessionAuth(sessionId: string): Promise<AuthPrompt> {
  return Logins.SessionAuth(sessionId);
}

/**
 * Starts the failed session's agent again after a login with `methodId` (env_var: `values` are
 * stored as the agent's secrets first). Resolves at once, like StartSession.
 */
export function StartSessionWithAuth(sessionId: string, methodId: string, values: Record<string, string>): Promise<SessionInfo> {
  return Logins.StartSessionWithAuth(sessionId, methodId, values);
}

/** Opens a terminal window running a terminal login method's command. */
export function RunAuthInTerminal(sessionId: string, methodId: string): Promise<void> {
  return Logins.RunAuthInTerminal(sessionId, methodId).then(() => undefined);
}

// ---- permission rules and the audit log (app_rules.go) ----

/** A rule as the Rules view lists it: what it matches in words (label), how often and when last it fired. */
export type RuleInfo = hub.RuleInfo;
/** A rule as it is saved (an empty id makes a new one). */
export type Rule = rules.Rule;
/** One decided permission request of the audit log. */
export type AuditItem = hub.AuditItem;
/** What narrows the audit log; an empty field narrows nothing. */
export type AuditFilter = main.AuditFilter;

/** Every rule, in the order they were made, and whether all are paused ("ask me for everything"). */
export function ListRules(): Promise<{ paused: boolean; rules: RuleInfo[] }> {
  return Rules.List().then((l) => ({ paused: !!l?.paused, rules: l?.rules ?? [] }));
}

/** Adds a rule (no id) or replaces the one with its id; rejects with what to fix when it does not validate. */
export function SaveRule(rule: Rule): Promise<RuleInfo> {
  return Rules.Save(rule);
}

/** Turns a rule off (it answers nothing) or on again. */
export function SetRuleDisabled(id: string, disabled: boolean): Promise<RuleInfo> {
  return Rules.SetDisabled(id, disabled);
}

/** Deletes a rule; what it decided stays in the audit log. */
export function DeleteRule(id: string): Promise<void> {
  return Rules.Delete(id).then(() => undefined);
}

/** Pauses every rule (every request is asked) or lets them answer again. */
export function SetRulesPaused(paused: boolean): Promise<void> {
  return Rules.SetPaused(paused).then(() => undefined);
}

/**
 * Makes the rule an open permission card offered (its scope and decision) and answers that
 * request with the agent's own once option for the decision; a permission_done event follows.
 */
export function MakeRuleFromRequest(sessionId: string, requestId: string, scope: string, decision: string): Promise<RuleInfo> {
  return Rules.MakeFromRequest(sessionId, requestId, scope, decision);
}

/** The decisions the filter keeps, newest first (at most 500). */
export function Audit(filter: AuditFilter): Promise<AuditItem[]> {
  return Rules.Audit(filter).then((v) => v ?? []);
}

/** Saves every rule as a rules file where the person picks; the path, or '' when they cancelled. */
export function SaveRulesExport(): Promise<string> {
  return Rules.SaveExport().then((v) => v ?? '');
}

/** Imports the rules of a file the person picks; how many (0 when they cancelled). */
export function ImportRules(): Promise<number> {
  return Rules.ImportFile().then((v) => v ?? 0);
}

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

// ---- the ACP registry (app_registry.go) ----

/** One agent of the ACP registry as the Registry view lists it (what is installed of it too). */
export type RegistryItem = main.RegistryItem;
/** The registry's agents, and whether they came from the network, the cached copy or the snapshot. */
export type RegistryListing = main.RegistryListing;

/** Reads the registry (the network's, else the cached copy, else the snapshot) and what is installed. */
export function ListRegistry(): Promise<RegistryListing> {
  return Registry.ListRegistry().then((l) => ({ ...l, items: l?.items ?? [] }));
}

/** Installs (or updates to) the version the registry names; the previous version is kept for rollback. */
export function InstallRegistryAgent(id: string): Promise<RegistryItem> {
  return Registry.InstallRegistryAgent(id);
}

/** Makes the version installed before current again. */
export function RollbackRegistryAgent(id: string): Promise<RegistryItem> {
  return Registry.RollbackRegistryAgent(id);
}

/** Removes every installed version of the agent. */
export function UninstallRegistryAgent(id: string): Promise<void> {
  return Registry.UninstallRegistryAgent(id).then(() => undefined);
}
