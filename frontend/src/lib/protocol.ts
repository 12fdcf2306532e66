// The types of the Go side as the page sees them. Two kinds:
//
// - The event contract (backend/acp/event.go and the snapshot that replays it) is written by
//   hand: one Wails event name, one payload type, discriminated on `kind`, with the unions the
//   page switches on. The shared golden files in testdata/events/ pin its JSON shapes for both
//   sides, and FieldsMatch (below) fails the type check when a Go field is added, renamed or
//   removed: Wails generates acp's types too, but without the unions, and with json.RawMessage as
//   number[] (so they are only compared, never used).
// - The bound verbs' own payloads are Wails' generated models (wailsjs/go/models, kept in step
//   with Go by `scripts/bindings.sh --check`), re-exported here so components import from one
//   place.
//
// Go marshals nil slices as `null`, so every list of the event contract may arrive as null;
// readers normalise.
import type { acp, attach, elicit, fsys, hub, main, receipt, schema } from '../../wailsjs/go/models';

/** The one Wails event name carrying session events. */
export const SESSION_EVENT = 'session:event';

export type SessionState = 'starting' | 'idle' | 'running' | 'cancelling' | 'exited' | 'failed';

export const SESSION_STATES: readonly SessionState[] = [
  'starting',
  'idle',
  'running',
  'cancelling',
  'exited',
  'failed',
];

export type EntryKind =
  | 'user'
  | 'agent'
  | 'thought'
  | 'tool'
  | 'plan'
  | 'usage'
  | 'unknown'
  | 'error'
  | 'boundary'
  | 'notice'
  | 'compaction'
  | 'subagent'
  | 'elicitation';

/** A `notice` entry: something the agent wants seen outside the conversation. Severity is the agent's word. */
export interface Notice {
  severity?: 'info' | 'warning' | 'error' | (string & {}) | null;
  title: string;
  description?: string | null;
}

/**
 * A `subagent` entry: a child session the agent started (acp.Subagent), changed in place as the
 * agent reports it. `sessionId` is agentdesk's id of the child: its saved session opens by it.
 */
export interface Subagent {
  sessionId: string;
  parentId: string;
  agentSessionId: string;
  title?: string | null;
  description?: string | null;
  /** running | idle | requires_action | unknown | newer; absent: not reported. */
  state?: string | null;
  stopReason?: string | null;
  /** The agent lets this child's work be cancelled (Sessions.CancelSubagent). */
  cancel?: boolean | null;
}

/** A `compaction` entry: where the agent compacted its context, with the summary it kept. */
export interface Compaction {
  id: string;
  /** The agent's status (in_progress, completed, failed, …); absent before one is reported. */
  status?: string | null;
  summary?: string | null;
  error?: string | null;
}

/** How an elicitation asks: a form in the card, or a page the person opens in the system browser. */
export type ElicitationMode = 'form' | 'url';

/**
 * Where an elicitation is: `open` (waiting on the person), answered (`accepted`, `declined`,
 * `cancelled`: by Stop or the agent's cancel), `completed` (a url one the agent closed with
 * elicitation/complete), or `invalid` (the Go side refused its schema; `error` says why).
 */
export type ElicitationState = 'open' | 'accepted' | 'declined' | 'cancelled' | 'completed' | 'invalid';

/** Who settled an elicitation: the person, Stop, the agent, the terminal (CLI), or a policy (CLI without --permissions ask). */
export type ElicitationAnsweredBy = 'user' | 'cancel' | 'agent' | 'terminal' | 'policy';

/** What the page answers to an open elicitation (AnswerElicitation). */
export type ElicitationAction = 'accept' | 'decline' | 'cancel';

/** One choice of an elicitation field (elicit.Choice): `value` is sent, `title` shown. */
export interface ElicitChoice {
  value: string;
  title: string;
}

/**
 * One field of a form elicitation as Go parsed and validated it (elicit.Field): its type, whether
 * it is required or secret, its format, choices and bounds, and a default already checked
 * against its type. Absent bounds are none.
 */
export interface ElicitField {
  name: string;
  type: 'string' | 'number' | 'integer' | 'boolean' | 'array' | (string & {});
  title?: string;
  description?: string;
  required?: boolean;
  /** A password or writeOnly string: its value reaches the agent only. */
  secret?: boolean;
  /** string: email | uri | date | date-time | password */
  format?: string;
  /** string: its enum/oneOf; array: the choices of its items. */
  choices?: ElicitChoice[] | null;
  /** string: the agent's pattern (Go syntax; Go checks it on submit). */
  pattern?: string;
  minLength?: number | null;
  maxLength?: number | null;
  minItems?: number | null;
  maxItems?: number | null;
  minimum?: number | null;
  maximum?: number | null;
  default?: unknown;
}

/**
 * An `elicitation` entry (id "elicitation-<requestId>"): a question the agent asks the person
 * (elicitation/create), upserted by id as it settles. All of it is the agent's, untrusted: the
 * page renders the fields Go parsed (lib/elicitation.ts) and never navigates to `url` itself.
 */
export interface Elicitation {
  requestId: string;
  mode: ElicitationMode | (string & {});
  message: string;
  /** form: the agent's restricted JSON Schema as sent; kept for the record, never read by the page. */
  schema?: unknown;
  /** form: the schema as Go validated it (backend/acp/elicit), in the agent's order: what the card renders. */
  fields?: ElicitField[] | null;
  /** url: the page to open, and its host (the Go side's parse) to emphasise. */
  url?: string | null;
  host?: string | null;
  elicitationId?: string | null;
  state: ElicitationState | (string & {});
  /** invalid: why the schema was refused. */
  error?: string | null;
  /** accepted: the values sent, secrets already masked by the Go side. */
  answer?: Record<string, unknown> | null;
  answeredBy?: ElicitationAnsweredBy | (string & {}) | null;
}

/**
 * How a continued session's agent came to know the earlier turns (a `boundary` entry):
 * `resumed` (it restored its own context), `replayed` (it replayed it; matched against ours,
 * never shown twice) or `summarised` (a new agent session, given `summary` with the next prompt).
 */
export type BoundaryKind = 'resumed' | 'replayed' | 'summarised' | 'forked' | (string & {});

export interface Boundary {
  kind: BoundaryKind;
  /** summarised: what the agent was given; replayed: why nothing of the replay was added. */
  summary?: string | null;
  /** replayed: the session/update messages the agent replayed. */
  replayed?: number | null;
  /** replayed: the entries of turns the agent had beyond ours, appended after the boundary. */
  added?: number | null;
  /** forked: how this session came from its parent (fork | rerun | continue-agent). */
  link?: LinkKind | null;
  /** forked: our id of the parent session. */
  fromId?: string | null;
  /** forked: the parent's title when it branched. */
  from?: string | null;
  /** forked: the parent's agent. */
  fromAgent?: string | null;
  /** forked: the parent's turn it branched at. */
  turn?: number | null;
  /** forked: the agent forked its own session (session/fork) rather than being given `summary`. */
  forked?: boolean | null;
}

/** How a linked session came from its parent (Boundary.link, HistoryItem.linkKind). */
export type LinkKind = 'fork' | 'rerun' | 'continue-agent' | (string & {});

/** The agent's four, plus ours: cancelled (by Stop) and incomplete (left open when the turn ended). */
export type ToolStatus = 'pending' | 'in_progress' | 'completed' | 'failed' | 'cancelled' | 'incomplete';

export interface Location {
  path: string;
  line?: number | null;
}

export interface TextContent {
  type: 'content';
  text?: string | null;
}

export interface DiffContent {
  type: 'diff';
  path: string;
  /** null or absent: a new file (every line added). */
  oldText?: string | null;
  /** Go omits it when empty (a deleted file's content). */
  newText?: string;
}

export interface TerminalContent {
  type: 'terminal';
  terminalId: string;
  /** One of ours: the tail of its output so far (at most 64 KiB, colour sequences kept, no other escape), kept after release. */
  output?: string | null;
  /** The start of the output was cut (the agent's byte limit, or the 64 KiB shown). */
  truncated?: boolean | null;
  /** Once the command has ended: its exit code, or the signal that killed it ("SIGKILL"). */
  exitStatus?: TerminalExitStatus | null;
  /** One of ours and running: the person may type into it (TerminalInput, TerminalInterrupt). */
  input?: boolean | null;
}

export interface TerminalExitStatus {
  exitCode?: number | null;
  signal?: string | null;
}

/** Any content type the Go side did not decode (kept raw). */
export interface OtherContent {
  type: string;
  raw?: unknown;
}

export type ToolContent = TextContent | DiffContent | TerminalContent | OtherContent;

export interface PlanItem {
  content: string;
  priority: string;
  status: 'pending' | 'in_progress' | 'completed';
}

export interface Usage {
  used: number;
  size: number;
  cost?: { amount: number; currency: string } | null;
}

export interface Entry {
  id: string;
  kind: EntryKind;
  turn: number;
  /** user: plain text; agent, thought: Markdown; error: the message. */
  text?: string | null;
  /** agent/thought/user: the ACP message id, when the agent sends one (informational). */
  messageId?: string | null;
  /** user: what was attached to the prompt, as it was sent. */
  attachments?: AttachmentInfo[] | null;
  /** user: the prompt was steered into the running turn (not a turn of its own). */
  steered?: boolean;
  /** tool: the agent's own tool call id (permissions refer to the entry id, not to this). */
  toolCallId?: string | null;
  toolKind?: string | null;
  /** tool: the tool's own name (ACP 1.35), one plain line cleaned in Go; absent when the agent sends none. */
  toolName?: string | null;
  title?: string | null;
  status?: ToolStatus | null;
  locations?: Location[] | null;
  content?: ToolContent[] | null;
  /** tool: the raw input/output JSON the agent sent (informational). */
  rawInput?: unknown;
  rawOutput?: unknown;
  plan?: PlanItem[] | null;
  /** plan: a plan by id (ACP 1.35 plan_update), changed in place; absent for the one plan of a turn. */
  planDoc?: PlanDoc | null;
  usage?: Usage | null;
  /** unknown: the update kind the Go side did not recognise, with its raw JSON. */
  updateKind?: string | null;
  raw?: unknown;
  /** error: the agent's error data and the tail of its stderr. */
  data?: unknown;
  stderr?: string | null;
  /** boundary: how the session was continued. */
  boundary?: Boundary | null;
  notice?: Notice | null;
  compaction?: Compaction | null;
  subagent?: Subagent | null;
  elicitation?: Elicitation | null;
}

export type PermissionOptionKind = 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always' | (string & {});

/** What an option means (acp.VerdictOf): allow, reject, or '' for a kind ACP does not define. */
export type PermissionVerdict = 'allow' | 'reject' | (string & {});

/** A permission option as Go sends it (acp.OptionSummary): the agent's id, name and kind, and its meaning. */
export interface PermissionOption {
  id: string;
  name: string;
  kind: PermissionOptionKind;
  verdict?: PermissionVerdict | null;
  /** allow_always or reject_always: it answers more than this request. */
  always?: boolean | null;
}

export interface PermissionRequest {
  requestId: string;
  /** The entry id of the tool card this request guards. */
  toolCallId: string;
  title: string;
  options: PermissionOption[] | null;
  /** The tool call's ACP kind (read, edit, execute...). */
  toolKind?: string | null;
  /** The rules the person may make from this request ("always for this agent in this project"). */
  ruleOptions?: RuleOption[] | null;
}

/** A rule a permission card offers (acp.RuleOption): its scope, decision and what it matches. */
export interface RuleOption {
  scope: 'kind' | 'folder' | 'command' | (string & {});
  decision: 'allow' | 'reject' | (string & {});
  /** What the rule will match, in words: "reads in ~/src/app for Claude Code". */
  label: string;
}

export type StopReason =
  | 'end_turn'
  | 'cancelled'
  | 'max_tokens'
  | 'max_turn_requests'
  | 'refusal'
  | 'error'
  | 'interrupted'
  | (string & {});

interface EventBase {
  sessionId: string;
  /** A subagent's events: its parent's id (the page shows a child through its parent's card and its saved copy). */
  parentId?: string;
  seq: number;
}

export interface StateEvent extends EventBase {
  kind: 'state';
  state: SessionState;
  message?: string | null;
}

/** Upsert by entry.id: insert at the end if new, else replace in place. */
export interface EntryEvent extends EventBase {
  kind: 'entry';
  entry: Entry;
}

/** Append text to entry.text. */
export interface ChunkEvent extends EventBase {
  kind: 'chunk';
  entryId: string;
  text: string;
}

export interface PermissionEvent extends EventBase, PermissionRequest {
  kind: 'permission';
}

export interface PermissionDoneEvent extends EventBase {
  kind: 'permission_done';
  requestId: string;
  /** The decision, the one place it is said: outcome, the option with its name, kind and verdict, who decided, the rule. */
  decision: DecisionSummary;
  /** Decided by a rule (no permission event came first): the request as it was. */
  toolCallId?: string | null;
  title?: string | null;
  options?: PermissionOption[] | null;
  toolKind?: string | null;
}

export interface TurnEndEvent extends EventBase {
  kind: 'turn_end';
  turn: number;
  stopReason: StopReason;
  message?: string | null;
  /** What the turn did (backend/acp/receipt). */
  receipt?: Receipt | null;
}

/**
 * What the agent lets the user pick (config options first; legacy modes/models otherwise) and the
 * slash commands it advertises. Lists are the agent's, in its order (backend/acp/controls.go).
 */
export interface Controls {
  configOptions?: ConfigOption[] | null;
  modes?: { currentModeId: string; availableModes: { id: string; name: string; description?: string }[] } | null;
  models?: { currentModelId: string; availableModels: { modelId: string; name: string; description?: string }[] } | null;
  commands?: { name: string; description?: string; input?: { hint?: string } | null }[] | null;
  /** What the agent accepts in a prompt besides text and file links. */
  promptCapabilities?: PromptCapabilities | null;
  /** The agent's own features the window may offer (its saved sessions, logging out); set once the session is open. */
  agentFeatures?: AgentFeatures | null;
  /** A queued prompt can be steered into the running turn (the agent offers steering). */
  canSteer?: boolean;
  /** The agent's predicted next prompts, oldest first: at most three plain lines, cleared when a turn starts. */
  suggestions?: string[] | null;
}

/** A plan by id: its type, its Markdown or its file's URI (text, never opened), whether the agent removed it. */
export interface PlanDoc {
  id: string;
  type: string;
  markdown?: string;
  uri?: string;
  removed?: boolean;
}

export interface AgentFeatures {
  listSessions?: boolean;
  deleteSessions?: boolean;
  archiveSessions?: boolean;
  logout?: boolean;
  /** The agent takes house rules as a system prompt (sessionCapabilities.systemPrompt). */
  systemPrompt?: boolean;
}

export interface ConfigOption {
  id: string;
  name: string;
  description?: string;
  category?: string;
  type: 'select' | 'boolean' | (string & {});
  currentValue?: unknown;
  options?: unknown;
}

/** The session's title and controls changed (the whole current set). */
export interface InfoEvent extends EventBase {
  kind: 'info';
  title?: string | null;
  controls?: Controls | null;
  /** The agent's version as Go shows it (acp.RunningVersion: installed, else its own from initialize). */
  agentVersion?: string | null;
}

/**
 * A prompt sent during a turn, waiting to be sent when the turn ends (backend/acp/session_queue.go).
 * `held`: the agent exited or failed while it waited; it was not sent and is not sent by itself.
 */
export interface QueuedPrompt {
  id: string;
  text: string;
  attachments?: AttachmentInfo[] | null;
  held?: boolean;
}

/** The queued prompts changed: the whole current queue, in order (absent: empty). */
export interface QueueEvent extends EventBase {
  kind: 'queue';
  queue?: QueuedPrompt[] | null;
}

export type SessionEvent =
  | InfoEvent
  | QueueEvent
  | StateEvent
  | EntryEvent
  | ChunkEvent
  | PermissionEvent
  | PermissionDoneEvent
  | TurnEndEvent;

export type EventKind = SessionEvent['kind'];

export interface TurnInfo {
  turn: number;
  /** Absent while the turn is running. */
  stopReason?: StopReason | null;
  message?: string | null;
  /** Absent while the turn is running, and for turns saved before receipts existed. */
  receipt?: Receipt | null;
}

/** One file a turn added, modified, deleted or renamed on disk (schema.ChangedFile). */
export interface ChangedFile {
  /** The session folder the file is in; `path` is slash-separated beneath it. */
  root: string;
  path: string;
  /** The old path of a rename. */
  from?: string | null;
  change: 'added' | 'modified' | 'deleted' | 'renamed';
  added: number;
  removed: number;
  binary?: boolean | null;
  /** Over the ledger's size cap: listed, but cannot be shown or reverted. */
  tooBig?: boolean | null;
}

/** What the change ledger saw a turn do to the session's folders (schema.TurnChanges). */
export interface TurnChanges {
  files?: ChangedFile[] | null;
  /** Changed files left out of `files`. */
  more?: number | null;
  /** What the ledger could not keep, worded for a person. */
  notes?: string[] | null;
  /** Why the turn's changes could not be recorded at all. */
  error?: string | null;
}

/** One command a turn ran (receipt.Command); `exitCode` absent while unknown. */
export interface ReceiptCommand {
  command: string;
  /** The entry id of the tool card that ran or shows it. */
  toolCallId?: string | null;
  exitCode?: number | null;
  signal?: string | null;
}

/** One permission request of a turn and its answer (receipt.Decision). */
export interface ReceiptDecision {
  title: string;
  toolCallId?: string | null;
  outcome: 'selected' | 'cancelled' | (string & {});
  option?: string | null;
  kind?: string | null;
  decidedBy?: string | null;
  /** The words of the rule that decided (decidedBy rule). */
  rule?: string | null;
}

/** One elicitation of a turn and how it ended (receipt.Question). */
export interface ReceiptQuestion {
  message: string;
  mode: string;
  state: string;
  answeredBy?: string | null;
}

/** A turn's token counts as the agent reported them (receipt.Tokens). */
export interface Tokens {
  input: number;
  output: number;
  thought?: number | null;
  cachedRead?: number | null;
  cachedWrite?: number | null;
  total: number;
}

/** What a turn did (receipt.Receipt): on its turn_end event, its TurnInfo and in the history. */
export interface Receipt {
  stopReason: StopReason | (string & {});
  changes?: TurnChanges | null;
  /** Unix milliseconds. */
  startedAt: number;
  endedAt: number;
  wallMs: number;
  /** How long of the turn a permission request or an elicitation waited on a person. */
  waitMs?: number | null;
  commands?: ReceiptCommand[] | null;
  decisions?: ReceiptDecision[] | null;
  questions?: ReceiptQuestion[] | null;
  tokens?: Tokens | null;
  cost?: { amount: number; currency: string } | null;
  /** How many commands, decisions and questions were left out of each list (the lists are bounded). */
  moreCommands?: number | null;
  moreDecisions?: number | null;
  moreQuestions?: number | null;
}

/** A closed permission request, as a snapshot keeps it (see Decision in state/transcript.ts). */
export interface DecisionSummary {
  requestId: string;
  /** The entry id of the tool card. */
  toolCallId: string;
  outcome: 'selected' | 'cancelled' | (string & {});
  optionId?: string | null;
  optionName?: string | null;
  optionKind?: string | null;
  /** What the chosen option means: allow or reject ('' or absent: cancelled, or a kind ACP does not define). */
  verdict?: PermissionVerdict | null;
  /** user | rule | cancel | cli */
  decidedBy?: string | null;
  /** The rule that decided (decidedBy rule) and its words. */
  ruleId?: string | null;
  ruleLabel?: string | null;
}

export interface Snapshot {
  sessionId: string;
  seq: number;
  /** '' for a saved session. */
  state: SessionState | '';
  message?: string | null;
  agentName: string;
  /** The installed version of an agent from the ACP registry (the session header shows it). */
  agentVersion?: string | null;
  cwd: string;
  /** The session's additional folders (beside cwd), when it has any. */
  dirs?: string[] | null;
  title: string;
  entries: Entry[] | null;
  permissions: PermissionRequest[] | null;
  /** The closed permission requests, in order. */
  decisions?: DecisionSummary[] | null;
  turns: TurnInfo[] | null;
  stderr?: string | null;
  controls?: Controls | null;
  /** The prompts waiting to be sent, in order (absent: none). */
  queue?: QueuedPrompt[] | null;
}

/**
 * A run of a saved session's entries (OpenHistoryPart), with the turns they belong to: the
 * generated model with the hand-written Snapshot. `from` is the position of the first entry among
 * the session's entries (0: they start at the first); `total` how many entries the session has.
 */
export interface HistoryPart extends Omit<main.HistoryPart, 'snapshot'> {
  snapshot: Snapshot;
}

// ---- bound verbs' payloads (generated) ----

/** An agent the picker lists; `custom`: the user's own (agents.json), which can be edited and deleted. */
export type AgentInfo = main.AgentInfo;

/** A started session (StartSession, StartSessionWithAuth); its events follow. */
export type SessionInfo = main.SessionInfo;

/** A live session as ListLive() lists it (and the quit request): its agent, folder and engine state. */
export type LiveSession = main.LiveSession;

/**
 * A saved session in the history list. `createdAt`, `updatedAt`: RFC 3339. `snippet`: the search
 * excerpt, with `[[` and `]]` marking the matches.
 */
export type HistoryItem = main.HistoryItem;

/**
 * Whether the history is being saved (HistoryStatus(), and the `history:status` event). `saving`
 * is false while writes fail (live sessions keep running in memory meanwhile); `problem` says what
 * failed and what to do; `since` is when writes started failing (unix ms), absent when the
 * history could not be opened at all, which a retry cannot mend (the app must be restarted).
 */
export type HistoryStatus = main.HistoryStatus;

export const HISTORY_STATUS_EVENT = 'history:status';

/** Runtime check of a `history:status` payload (the bridge is untyped). */
export function isHistoryStatus(v: unknown): v is HistoryStatus {
  return !!v && typeof v === 'object' && typeof (v as Record<string, unknown>).saving === 'boolean';
}

/**
 * The `app:quit-request` event (app_quit.go): the window's close was held because these live
 * sessions are starting or running a turn; the page asks the user (Desktop.ConfirmQuit or
 * Desktop.CancelQuit). A second close while it asks quits regardless.
 */
export interface QuitRequest {
  sessions: LiveSession[];
}

export const QUIT_REQUEST_EVENT = 'app:quit-request';

/**
 * The `app:files-dropped` event (app_drop.go): the person dropped these files on the window (a
 * native drop, absolute paths). The page attaches them to the shown live session with
 * Sessions.AttachDropped, which takes only paths that were dropped.
 */
export interface FilesDropped {
  paths: string[];
}

export const FILES_DROPPED_EVENT = 'app:files-dropped';

/** Runtime check of an `app:files-dropped` payload. */
export function isFilesDropped(v: unknown): v is FilesDropped {
  const paths = !!v && typeof v === 'object' ? (v as Record<string, unknown>).paths : undefined;
  return Array.isArray(paths) && paths.every((p) => typeof p === 'string');
}

/** What Sessions.AttachDropped attached, and why each other dropped path was not (one line each). */
export interface DroppedFiles {
  files: FolderFile[];
  problems: string[];
}

/** Runtime check of an `app:quit-request` payload. */
export function isQuitRequest(v: unknown): v is QuitRequest {
  return !!v && typeof v === 'object' && Array.isArray((v as Record<string, unknown>).sessions);
}

/** Why the page asks for the user's attention (NotifyAttention; backend/notify's Kind). */
export type AttentionKind = 'permission' | 'finished';

/** The user clicked a notification of this session; the window was raised (notify_app.go). */
export interface AttentionFocus {
  sessionId: string;
}

export const ATTENTION_FOCUS_EVENT = 'attention:focus';

/** Runtime check of an `attention:focus` payload. */
export function isAttentionFocus(v: unknown): v is AttentionFocus {
  return !!v && typeof v === 'object' && typeof (v as Record<string, unknown>).sessionId === 'string';
}

/**
 * One raw protocol message of a session (Messages()). `direction` in: agent -> agentdesk, out:
 * agentdesk -> agent; `method` only on requests and notifications; `json` the message as sent on
 * the wire; `at` RFC 3339 with milliseconds.
 */
export type JournalLine = main.JournalLine;

export function isSessionState(s: unknown): s is SessionState {
  return typeof s === 'string' && (SESSION_STATES as readonly string[]).includes(s);
}

/** Runtime check that a Wails event payload looks like a SessionEvent (the bridge is untyped). */
export function isSessionEvent(v: unknown): v is SessionEvent {
  if (!v || typeof v !== 'object') return false;
  const e = v as Record<string, unknown>;
  return typeof e.sessionId === 'string' && typeof e.seq === 'number' && typeof e.kind === 'string';
}

// ---- attachments (backend/acp/attach) ----

/** What the agent accepts in a prompt besides text and file links (its initialize answer). */
export interface PromptCapabilities {
  image?: boolean;
  audio?: boolean;
  embeddedContext?: boolean;
}

/** What the transcript keeps of an attachment sent with a prompt (live and saved). */
export interface AttachmentInfo {
  kind: 'file' | 'image' | (string & {});
  name: string;
  /** file: its absolute path. */
  path?: string | null;
  mimeType?: string | null;
  /** Bytes (an image's decoded data). */
  size: number;
  /** How it was sent: a link the agent reads, the file's text embedded, or an image. */
  sent: 'link' | 'embedded' | 'image' | (string & {});
  width?: number | null;
  height?: number | null;
  /** image: a small PNG as a data: URL, made by the Go side. */
  thumbnail?: string | null;
}

/**
 * An attachment as PromptWith takes it: a file of the session folder (`path` relative to it, or
 * absolute inside it), or an image (`mimeType` and base64 `data`). The generated model, with
 * the kinds the Go side accepts.
 */
export interface Attachment extends attach.Attachment {
  kind: 'file' | 'image';
}

/** A file of the session folder offered by the attachment picker (ListFolderFiles()): `path` relative to it, with forward slashes. */
export type FolderFile = fsys.FolderFile;

/**
 * A folder as a start would get it (CheckFolder()): the resolved `path`, and `broad`, '' or what
 * makes it too broad to start in unasked: 'home' (the home folder itself) or 'root' (/).
 */
export type FolderCheck = main.FolderCheck;

/**
 * One page of the sessions an agent keeps (ListAgentSessions()): each with the folder it lists
 * it in and, when the history holds a copy, `savedId`. `nextCursor` is opaque: pass it back.
 */
export type AgentSessionPage = hub.AgentSessionPage;
export type AgentSessionItem = hub.AgentSessionItem;

// ---- the hand-written contract against the generated models ----

/** Every field name of T, of each member when T is a union. */
type AllFields<T> = T extends unknown ? keyof T : never;

/** true when A and B name the same fields; else what differs, for the error message. */
export type SameFields<A, B> = [Exclude<AllFields<A>, AllFields<B>> | Exclude<AllFields<B>, AllFields<A>>] extends [never]
  ? true
  : { onlyHere: Exclude<AllFields<A>, AllFields<B>>; onlyInGo: Exclude<AllFields<B>, AllFields<A>> };

/** Compiles only when T is true: wraps SameFields checks. */
export type Holds<T extends true> = T;

/**
 * Fails the type check when a hand-written type of the event contract and the model Wails
 * generates from its Go struct do not name the same fields (after `scripts/bindings.sh`).
 */
export type FieldsMatch = [
  Holds<SameFields<Snapshot, acp.Snapshot>>,
  Holds<SameFields<Entry, acp.Entry>>,
  Holds<SameFields<ToolContent, acp.ToolContent>>,
  Holds<SameFields<Location, schema.Location>>,
  Holds<SameFields<TerminalExitStatus, schema.TerminalExitStatus>>,
  Holds<SameFields<PlanItem, schema.PlanEntry>>,
  Holds<SameFields<Usage, schema.Usage>>,
  Holds<SameFields<NonNullable<Usage['cost']>, schema.Cost>>,
  Holds<SameFields<PermissionRequest, acp.PermissionSummary>>,
  Holds<SameFields<PermissionOption, acp.OptionSummary>>,
  Holds<SameFields<RuleOption, acp.RuleOption>>,
  Holds<SameFields<TurnInfo, acp.TurnSummary>>,
  Holds<SameFields<Controls, acp.Controls>>,
  Holds<SameFields<AgentFeatures, acp.AgentFeatures>>,
  Holds<SameFields<NonNullable<Controls['modes']>, schema.Modes>>,
  Holds<SameFields<NonNullable<Controls['modes']>['availableModes'][number], schema.Mode>>,
  Holds<SameFields<NonNullable<Controls['models']>, schema.Models>>,
  Holds<SameFields<NonNullable<Controls['models']>['availableModels'][number], schema.Model>>,
  Holds<SameFields<NonNullable<Controls['commands']>[number], schema.SlashCommand>>,
  Holds<SameFields<NonNullable<NonNullable<Controls['commands']>[number]['input']>, schema.CommandInput>>,
  Holds<SameFields<ConfigOption, schema.ConfigOption>>,
  Holds<SameFields<PromptCapabilities, schema.PromptCapabilities>>,
  Holds<SameFields<AttachmentInfo, attach.Info>>,
  Holds<SameFields<Boundary, acp.Boundary>>,
  Holds<SameFields<Elicitation, acp.Elicitation>>,
  Holds<SameFields<ElicitField, elicit.Field>>,
  Holds<SameFields<ElicitChoice, elicit.Choice>>,
  Holds<SameFields<DecisionSummary, acp.DecisionSummary>>,
  Holds<SameFields<QueuedPrompt, acp.QueuedPrompt>>,
  Holds<SameFields<Receipt, receipt.Receipt>>,
  Holds<SameFields<TurnChanges, schema.TurnChanges>>,
  Holds<SameFields<ChangedFile, schema.ChangedFile>>,
  Holds<SameFields<ReceiptCommand, receipt.Command>>,
  Holds<SameFields<ReceiptDecision, receipt.Decision>>,
  Holds<SameFields<ReceiptQuestion, receipt.Question>>,
  Holds<SameFields<Tokens, receipt.Tokens>>,
];
