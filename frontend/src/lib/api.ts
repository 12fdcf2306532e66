// The ONLY importer of the generated Go bindings. Components and stores call these wrappers,
// which give the untyped bridge the types of protocol.ts. A Go error rejects the promise with
// its message (a string); errorMessage() turns any rejection into text for the error banner.
import * as App from '../../wailsjs/go/main/App.js';
import type { AgentSettings, AuthPrompt, ImportResult } from './agents';
import type { AgentInfo, Attachment, AttentionKind, FolderFile, HistoryItem, HistoryPart, HistoryStatus, JournalLine, SessionInfo, Snapshot } from './protocol';

export function ListAgents(): Promise<AgentInfo[]> {
  return App.ListAgents().then((v) => (v ?? []) as unknown as AgentInfo[]);
}

/** What the user must know about the history at start-up (unavailable, or a file set aside), or "". */
export function HistoryNotice(): Promise<string> {
  return App.HistoryNotice().then((v) => v ?? '');
}

/** Whether the history is being saved now; changes arrive later through onHistoryStatus. */
export function HistoryStatus(): Promise<HistoryStatus> {
  return App.HistoryStatus().then((v) => v as HistoryStatus);
}

/**
 * Saves now: what is pending and a whole copy of every live session. Rejects, saying why, when the
 * history still cannot be written.
 */
export function RetryHistory(): Promise<HistoryStatus> {
  return App.RetryHistory().then((v) => v as HistoryStatus);
}

export function DefaultFolder(): Promise<string> {
  return App.DefaultFolder().then((v) => (v ?? '') as unknown as string);
}

/** Resolves at once (state 'starting'); the session's events follow. */
export function StartSession(agentId: string, cwd: string): Promise<SessionInfo> {
  return App.StartSession(agentId, cwd).then((v) => v as unknown as SessionInfo);
}

/** Resolves when the prompt is sent; the turn ends with a turn_end event. */
export function Prompt(sessionId: string, text: string): Promise<void> {
  return App.Prompt(sessionId, text).then(() => undefined);
}

export function Stop(sessionId: string): Promise<void> {
  return App.Stop(sessionId).then(() => undefined);
}

export function HardStop(sessionId: string): Promise<void> {
  return App.HardStop(sessionId).then(() => undefined);
}

/** Restarts an exited agent and reattaches: resolves to "resumed", "loaded" or "new session". */
export function ContinueSession(sessionId: string): Promise<string> {
  return App.ContinueSession(sessionId);
}

export function AnswerPermission(sessionId: string, requestId: string, optionId: string): Promise<void> {
  return App.AnswerPermission(sessionId, requestId, optionId).then(() => undefined);
}

export function Snapshot(sessionId: string): Promise<Snapshot> {
  return App.Snapshot(sessionId).then((v) => v as unknown as Snapshot);
}

export function ListHistory(query: string): Promise<HistoryItem[]> {
  return App.ListHistory(query).then((v) => (v ?? []) as unknown as HistoryItem[]);
}

/** `limit` entries of a saved session from position `from` (negative: its last `limit`). */
export function OpenHistoryPart(id: string, from: number, limit: number): Promise<HistoryPart> {
  return App.OpenHistoryPart(id, from, limit).then((v) => v as unknown as HistoryPart);
}

/** A saved session as Markdown ("md") or JSON ("json"). */
export function ExportHistory(id: string, format: 'md' | 'json'): Promise<string> {
  return App.ExportHistory(id, format);
}

/**
 * Saves a saved session to a file the user picks in the system's save dialog, as Markdown ("md")
 * or JSON ("json"). Resolves to the path written, or "" when the user cancelled; rejects saying
 * what failed and what to do.
 */
export function SaveHistoryExport(id: string, format: 'md' | 'json'): Promise<string> {
  return App.SaveHistoryExport(id, format).then((v) => v ?? '');
}

/** Deletes a saved session with its transcript and journal. */
export function DeleteHistory(id: string): Promise<void> {
  return App.DeleteHistory(id).then(() => undefined);
}

/** Gives a saved session a title of the user's choosing. */
export function RenameHistory(id: string, title: string): Promise<void> {
  return App.RenameHistory(id, title).then(() => undefined);
}

/**
 * Sets a config option of the live session. `value` is encoded here: a string for a select, a
 * boolean for a switch. The info event that follows carries the agent's new state.
 */
export function SetConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<void> {
  return App.SetConfigOption(sessionId, configId, JSON.stringify(value)).then(() => undefined);
}

/** Legacy mode switch (agents without config options). */
export function SetMode(sessionId: string, modeId: string): Promise<void> {
  return App.SetMode(sessionId, modeId).then(() => undefined);
}

/** Legacy model switch (agents without config options). */
export function SetModel(sessionId: string, modelId: string): Promise<void> {
  return App.SetModel(sessionId, modelId).then(() => undefined);
}

/**
 * Like Prompt, with attachments: files of the session folder and pasted images. Rejects, naming
 * the attachment and what to do, when one cannot be sent (nothing is sent then).
 */
export function PromptWith(sessionId: string, text: string, attachments: Attachment[]): Promise<void> {
  return App.PromptWith(sessionId, text, attachments).then(() => undefined);
}

/** Up to 50 files of the live session's folder matching query, best first (attachment picker). */
export function ListFolderFiles(sessionId: string, query: string): Promise<FolderFile[]> {
  return App.ListFolderFiles(sessionId, query).then((v) => (v ?? []) as FolderFile[]);
}

/** The raw JSON-RPC traffic of a live or saved session, oldest first (protocol inspector). */
export function Messages(sessionId: string): Promise<JournalLine[]> {
  return App.Messages(sessionId).then((v) => (v ?? []) as unknown as JournalLine[]);
}

/**
 * Asks for the user's attention while the window is not focused: an OS notification for the
 * session (rate-limited on the Go side) and the window's urgency hint. Resolves at once; rejects
 * for an unknown kind or a session that is not live.
 */
export function NotifyAttention(sessionId: string, kind: AttentionKind, agent: string, title: string): Promise<void> {
  return App.NotifyAttention(sessionId, kind, agent, title).then(() => undefined);
}

/** The window has the focus again: withdraws the notifications and clears the urgency hint. */
export function AttentionSeen(): Promise<void> {
  return App.AttentionSeen().then(() => undefined);
}

/** Used only by the smoke test's injected script, never by the UI. */
export function SelfTestDone(report: string): Promise<void> {
  return App.SelfTestDone(report).then(() => undefined);
}

/** Why the custom agents file cannot be read, or "" (said once, at start-up). */
export function AgentsNotice(): Promise<string> {
  return App.AgentsNotice().then((v) => v ?? '');
}

/** A custom agent for the editor; secrets say whether they are set, never their value. */
export function GetAgent(id: string): Promise<AgentSettings> {
  return App.GetAgent(id).then((v) => v as unknown as AgentSettings);
}

/** Adds (id '') or replaces a custom agent; rejects with the reason when it is not valid. */
export function SaveAgent(settings: AgentSettings): Promise<AgentInfo> {
  return App.SaveAgent(settings).then((v) => v as unknown as AgentInfo);
}

/** Deletes a custom agent and its secrets. */
export function DeleteAgent(id: string): Promise<void> {
  return App.DeleteAgent(id).then(() => undefined);
}

/** Adds the agents of Zed's settings (comments and trailing commas allowed). */
export function ImportZedAgents(text: string): Promise<ImportResult> {
  return App.ImportZedAgents(text).then((v) => v as unknown as ImportResult);
}

/** The login methods of a session that failed because its agent needs a login (none otherwise). */
export function SessionAuth(sessionId: string): Promise<AuthPrompt> {
  return App.SessionAuth(sessionId).then((v) => v as unknown as AuthPrompt);
}

/**
 * Starts the failed session's agent again after a login with `methodId` (env_var: `values` are
 * stored as the agent's secrets first). Resolves at once, like StartSession.
 */
export function StartSessionWithAuth(sessionId: string, methodId: string, values: Record<string, string>): Promise<SessionInfo> {
  return App.StartSessionWithAuth(sessionId, methodId, values).then((v) => v as unknown as SessionInfo);
}

/** Opens a terminal window running a terminal login method's command. */
export function RunAuthInTerminal(sessionId: string, methodId: string): Promise<void> {
  return App.RunAuthInTerminal(sessionId, methodId).then(() => undefined);
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
