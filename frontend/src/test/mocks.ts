// Test doubles for the wailsjs modules (docs/development.md): one per bound service, and the runtime.
// src/test/setup.ts mocks every wailsjs module with these for every test file;
// drive the page with ./harness.ts, whose `app` holds every service's verbs. This module
// must not import the wailsjs modules itself (it builds their mocks); it reads their types only.
import { vi } from 'vitest';
import type { changes, hub, main, rules, worktree } from '../../wailsjs/go/models';
import type { AgentSettings, AuthPrompt, ImportResult, MCPSettings } from '../lib/agents';
import type { AgentInfo, AgentSessionPage, Attachment, FolderFile, HistoryItem, JournalLine, LiveSession, Snapshot } from '../lib/protocol';

export const AGENTS: AgentInfo[] = [
  { id: 'demo', name: 'Demo agent', available: true, custom: false },
  { id: 'claude', name: 'Claude Code', available: true, custom: false },
  { id: 'codex', name: 'Codex', available: false, reason: 'codex-acp not found on PATH', custom: false },
];

export const FOLDER = '/home/me/project';
export const SID = 's1';

export function emptySnapshot(sessionId: string, extra: Partial<Snapshot> = {}): Snapshot {
  return {
    sessionId,
    seq: 0,
    state: 'starting',
    agentName: 'Demo agent',
    cwd: FOLDER,
    title: '',
    entries: [],
    permissions: [],
    turns: [],
    ...extra,
  };
}

/** A listed rule with harmless defaults for the fields not given. */
/** A registry item as the Registry view lists it; `extra` overrides the fields given. */
export function registryItem(extra: Partial<main.RegistryItem> & { id: string }): main.RegistryItem {
  return {
    agentId: `registry:${extra.id}`,
    name: extra.id,
    version: '1.0.0',
    description: 'An agent',
    kind: 'npx',
    source: `${extra.id}@1.0.0`,
    installed: '',
    previous: '',
    verified: false,
    ...extra,
  };
}

export function ruleInfo(r: Partial<hub.RuleInfo> & { id: string }): hub.RuleInfo {
  return {
    agentId: 'claude',
    agentName: 'Claude Code',
    folder: FOLDER,
    kind: 'read',
    tool: '',
    path: '',
    command: '',
    decision: 'allow',
    disabled: false,
    label: `reads in ${FOLDER} for Claude Code`,
    createdAt: '2026-12-01T10:00:00Z',
    fired: 0,
    lastFiredAt: '',
    ...r,
  };
}

/** The first appMock() made: the verbs vi.mock installs as the service modules (tests set their implementations). */
let installed: ReturnType<typeof appMock> | null = null;

/** Every bound verb, each a vi.fn with a harmless default; serviceMock parts them by service. */
export function appMock() {
  const mock = {
    ListAgents: vi.fn(async () => AGENTS),
    DefaultFolder: vi.fn(async () => FOLDER),
    ListLive: vi.fn(async (): Promise<LiveSession[]> => []),
    Show: vi.fn(async (_sessionId: string) => {}),
    CloseSession: vi.fn(async (_sessionId: string) => {}),
    CancelStart: vi.fn(async (_sessionId: string) => {}),
    RecentFolders: vi.fn(async (_agentId: string): Promise<string[]> => []),
    BrowseFolder: vi.fn(async (_start: string) => ''),
    CheckFolder: vi.fn(async (cwd: string) => ({ path: cwd, broad: '' })),
    ContinueSaved: vi.fn(async (sessionId: string) => ({ sessionId, agentId: 'demo', agentName: 'Demo agent', cwd: FOLDER })),
    ForkSession: vi.fn(async (_sessionId: string, _turn: number) => ({ sessionId: 'fork-1', agentId: 'demo', agentName: 'Demo agent', cwd: FOLDER })),
    RerunEdited: vi.fn(async (_sessionId: string, _turn: number, _text: string) => ({ sessionId: 'fork-1', agentId: 'demo', agentName: 'Demo agent', cwd: FOLDER })),
    ContinueInAgent: vi.fn(async (_sessionId: string, agentId: string) => ({ sessionId: 'fork-1', agentId, agentName: 'Other agent', cwd: FOLDER })),
    StartSession: vi.fn(async (agentId: string, cwd: string, _dirs: string[], _worktree: boolean, _carry: boolean) => ({ sessionId: SID, agentId, agentName: 'Demo agent', cwd })),
    ChooseWorktree: vi.fn(async (_cwd: string): Promise<hub.WorktreeChoice> => ({ possible: false, why: 'the folder is not in a git repository', chosen: false, uncommitted: 0 })),
    Prompt: vi.fn(async () => {}),
    TerminalInput: vi.fn(async (_sessionId: string, _terminalId: string, _text: string) => {}),
    TerminalInterrupt: vi.fn(async (_sessionId: string, _terminalId: string) => {}),
    EditQueued: vi.fn(async (_sessionId: string, _itemId: string, _text: string) => {}),
    RemoveQueued: vi.fn(async (_sessionId: string, _itemId: string) => {}),
    SendQueuedNow: vi.fn(async (_sessionId: string, _itemId: string) => {}),
    Steer: vi.fn(async (_sessionId: string, _itemId: string) => {}),
    Stop: vi.fn(async () => {}),
    HardStop: vi.fn(async () => {}),
    CancelSubagent: vi.fn(async (_sessionId: string, _subagentId: string) => {}),
    ContinueSession: vi.fn(async () => 'resumed'),
    HistoryNotice: vi.fn(async () => ''),
    HistoryStatus: vi.fn(async () => ({ saving: true })),
    RetryHistory: vi.fn(async () => ({ saving: true })),
    AnswerPermission: vi.fn(async () => {}),
    AnswerElicitation: vi.fn(async (_sessionId: string, _requestId: string, _action: string, _content: Record<string, unknown>) => {}),
    OpenElicitationURL: vi.fn(async (_sessionId: string, _requestId: string) => {}),
    ListAgentSessions: vi.fn(async (_sessionId: string, _cursor: string): Promise<AgentSessionPage> => ({ sessions: [] })),
    OpenAgentSession: vi.fn(async (_sessionId: string, agentSessionId: string, cwd: string, _title: string) => ({
      sessionId: 'opened-' + agentSessionId,
      agentId: 'demo',
      agentName: 'Demo agent',
      cwd,
    })),
    DeleteAgentSession: vi.fn(async (_sessionId: string, _agentSessionId: string) => {}),
    ArchiveAgentSession: vi.fn(async (_sessionId: string, _agentSessionId: string) => {}),
    LogoutAgent: vi.fn(async (_sessionId: string) => {}),
    HouseRules: vi.fn(async (agentId: string, folder: string) => ({ agentId, folder, text: '', saved: '', max: 32768 })),
    SaveHouseRules: vi.fn(async (agentId: string, folder: string, text: string) => ({ agentId, folder, text, saved: text ? '2026-12-07T14:00:00Z' : '', max: 32768 })),
    Snapshot: vi.fn(async (id: string) => emptySnapshot(id)),
    ListHistory: vi.fn(async (_query: string): Promise<HistoryItem[]> => []),
    OpenHistory: vi.fn(async (id: string) => emptySnapshot(id, { state: '' })),
    // A part of whatever the mocked module's OpenHistory now returns (without counting a call).
    OpenHistoryPart: vi.fn(async (id: string, from: number, limit: number) => {
      const whole = await (installed!.OpenHistory.getMockImplementation() ?? (async (i: string) => emptySnapshot(i, { state: '' })))(id);
      const entries = whole.entries ?? [];
      const start = from < 0 ? Math.max(0, entries.length - limit) : Math.min(from, entries.length);
      return { snapshot: { ...whole, entries: entries.slice(start, start + limit) }, from: start, total: entries.length };
    }),
    SelfTestDone: vi.fn(async () => {}),
    ConfirmQuit: vi.fn(async () => {}),
    CancelQuit: vi.fn(async () => {}),
    NotifyAttention: vi.fn(async (_sessionId: string, _kind: string, _agent: string, _title: string) => {}),
    OpenInEditor: vi.fn(async (_sessionId: string, _path: string, _line: number) => {}),
    AttentionSeen: vi.fn(async () => {}),
    RenameHistory: vi.fn(async (_id: string, _title: string) => {}),
    DeleteHistory: vi.fn(async (_id: string) => {}),
    AgentsNotice: vi.fn(async () => ''),
    GetAgent: vi.fn(async (id: string): Promise<AgentSettings> => ({ id, name: id, command: id, args: '', env: [], folder: '', version: '' })),
    GetPresetOverride: vi.fn(async (id: string): Promise<AgentSettings> => ({ id, name: id, command: '', args: '--acp', env: [], folder: '', version: '' })),
    SavePresetOverride: vi.fn(async (s: AgentSettings): Promise<AgentInfo> => ({ id: s.id, name: s.name, available: true, custom: false, preset: { overridden: true } })),
    ResetPreset: vi.fn(async (id: string): Promise<AgentInfo> => ({ id, name: id, available: true, custom: false, preset: {} })),
    InstallPreset: vi.fn(async (id: string): Promise<AgentInfo> => ({ id, name: id, available: true, custom: false, version: '1.0.0', preset: {} })),
    SaveAgent: vi.fn(async (s: AgentSettings): Promise<AgentInfo> => ({ id: s.id || 'custom', name: s.name, available: true, custom: true })),
    DeleteAgent: vi.fn(async (_id: string) => {}),
    ImportZedAgents: vi.fn(async (_text: string): Promise<ImportResult> => ({ added: [], skipped: [] })),
    ListMCPServers: vi.fn(async (): Promise<MCPSettings[]> => []),
    SaveMCPServer: vi.fn(async (s: MCPSettings): Promise<MCPSettings> => ({ ...s, was: s.name })),
    DeleteMCPServer: vi.fn(async (_name: string) => {}),
    SessionAuth: vi.fn(
      async (sessionId: string): Promise<AuthPrompt> => ({ sessionId, agentId: '', agentName: '', message: '', methods: [], canRunTerminal: false }),
    ),
    StartSessionWithAuth: vi.fn(async (_sessionId: string, _methodId: string, _values: Record<string, string>) => ({
      sessionId: 's2',
      agentId: 'demo',
      agentName: 'Demo agent',
      cwd: FOLDER,
    })),
    RunAuthInTerminal: vi.fn(async (_sessionId: string, _methodId: string) => {}),
    ExportHistory: vi.fn(async (id: string, format: string) => (format === 'md' ? `# Session ${id}\n` : '{}')),
    SaveHistoryExport: vi.fn(async (id: string, format: string) => `${FOLDER}/${id}.${format}`),
    UsageLedger: vi.fn(
      async (_since: string, by: string): Promise<main.UsageReport> => ({
        by,
        since: '',
        rows: [],
        total: { key: 'total', label: 'Total', turns: 0, wallMs: 0, reported: 0, tokensIn: 0, tokensOut: 0, tokensTotal: 0, costs: [] },
        silent: [],
      }),
    ),
    SaveUsageCSV: vi.fn(async (_since: string, by: string) => `${FOLDER}/usage-${by}.csv`),
    SetConfigOption: vi.fn(async (_sessionId: string, _configId: string, _valueJSON: string) => {}),
    SetMode: vi.fn(async (_sessionId: string, _modeId: string) => {}),
    SetModel: vi.fn(async (_sessionId: string, _modelId: string) => {}),
    Messages: vi.fn(async (_sessionId: string): Promise<JournalLine[]> => []),
    PromptWith: vi.fn(async (_sessionId: string, _text: string, _attachments: Attachment[]) => {}),
    ListFolderFiles: vi.fn(async (_sessionId: string, _query: string): Promise<FolderFile[]> => []),
    ChooseFileElsewhere: vi.fn(async (_sessionId: string): Promise<FolderFile> => ({ path: '', name: '', size: 0 })),
    AttachDropped: vi.fn(async (_sessionId: string, _paths: string[]) => ({ files: [] as FolderFile[], problems: [] as string[] })),
    SessionChanges: vi.fn(async (id: string): Promise<changes.SessionView> => ({ sessionId: id, turns: [] }) as unknown as changes.SessionView),
    ChangeDiff: vi.fn(
      async (_id: string, _turn: number, _root: string, path: string): Promise<changes.FileDiff> =>
        ({ path, change: 'modified', hunks: [] }) as unknown as changes.FileDiff,
    ),
    FileSessions: vi.fn(async (_root: string, _path: string): Promise<changes.FileTouch[]> => []),
    PreviewRevert: vi.fn(async (_req: changes.RevertRequest): Promise<changes.Plan> => ({ files: [] }) as unknown as changes.Plan),
    Revert: vi.fn(async (_req: changes.RevertRequest): Promise<changes.Plan> => ({ files: [] }) as unknown as changes.Plan),
    UndoRevert: vi.fn(async (_id: string, _revertId: string): Promise<changes.Plan> => ({ files: [] }) as unknown as changes.Plan),
    List: vi.fn(async (): Promise<hub.RuleList> => ({ paused: false, rules: [] })),
    Save: vi.fn(async (r: rules.Rule): Promise<hub.RuleInfo> => ruleInfo({ ...r, id: r.id || 'rule-new' })),
    SetDisabled: vi.fn(async (id: string, disabled: boolean): Promise<hub.RuleInfo> => ruleInfo({ id, disabled })),
    Delete: vi.fn(async (_id: string) => {}),
    SetPaused: vi.fn(async (_paused: boolean) => {}),
    MakeFromRequest: vi.fn(
      async (_sessionId: string, _requestId: string, scope: string, decision: string): Promise<hub.RuleInfo> =>
        ruleInfo({ id: 'rule-made', kind: scope === 'kind' ? 'read' : '', decision }),
    ),
    Audit: vi.fn(async (_filter: main.AuditFilter): Promise<hub.AuditItem[]> => []),
    SaveExport: vi.fn(async () => `${FOLDER}/agentdesk-rules.json`),
    ImportFile: vi.fn(async () => 0),
    ListRegistry: vi.fn(
      async (): Promise<main.RegistryListing> => ({ items: [], origin: 'network', offline: false, note: '', fetchedAt: '', platform: 'linux-x86_64' }),
    ),
    InstallRegistryAgent: vi.fn(async (id: string): Promise<main.RegistryItem> => registryItem({ id, installed: '1.0.0' })),
    RollbackRegistryAgent: vi.fn(async (id: string): Promise<main.RegistryItem> => registryItem({ id })),
    UninstallRegistryAgent: vi.fn(async (_id: string) => {}),
    Worktree: vi.fn(async (_id: string): Promise<main.WorktreeView | null> => null),
    ReviewWorktree: vi.fn(async (_id: string): Promise<worktree.Review> => ({ files: [], added: 0, removed: 0, diff: '' })),
    PreviewApply: vi.fn(async (_id: string): Promise<worktree.ApplyResult> => ({ files: [], conflicts: 0, applied: false })),
    ApplyWorktree: vi.fn(async (_id: string): Promise<worktree.ApplyResult> => ({ files: [], conflicts: 0, applied: true })),
    CommitWorktree: vi.fn(async (_id: string, _message: string) => 'c0ffee'),
    DiscardWorktree: vi.fn(async (_id: string) => {}),
    StartComparison: vi.fn(
      async (cwd: string, agentIds: string[], _prompt: string, _check: string): Promise<hub.ComparisonInfo> =>
        ({ id: 'cmp-1', sessions: agentIds.map((agentId, i) => ({ sessionId: `c${i + 1}`, agentId, agentName: agentId, cwd })) }) as hub.ComparisonInfo,
    ),
    Comparison: vi.fn(
      async (id: string): Promise<hub.ComparisonView> => ({ id, cwd: FOLDER, prompt: '', check: '', createdAt: '', members: [], rows: [] }) as unknown as hub.ComparisonView,
    ),
  } satisfies Record<Verb, unknown>;
  installed ??= mock;
  return mock;
}

/** The generated service modules (types only: see above). */
interface Services {
  Sessions: typeof import('../../wailsjs/go/main/Sessions.js');
  Logins: typeof import('../../wailsjs/go/main/Logins.js');
  History: typeof import('../../wailsjs/go/main/History.js');
  Agents: typeof import('../../wailsjs/go/main/Agents.js');
  Desktop: typeof import('../../wailsjs/go/main/Desktop.js');
  Rules: typeof import('../../wailsjs/go/main/Rules.js');
  Registry: typeof import('../../wailsjs/go/main/Registry.js');
}

/** A verb of any service. */
type Verb = { [S in keyof Services]: keyof Services[S] }[keyof Services];

/**
 * The mock of one generated service module: for each verb the module exports (`generated`, the
 * real module, which only names them), the very vi.fn of the installed appMock(). So the
 * generated modules stay the one list of which service binds which verb.
 */
export function serviceMock(generated: Record<string, unknown>) {
  const all: Record<string, unknown> = (installed ??= appMock());
  return Object.fromEntries(Object.keys(generated).map((verb) => [verb, all[verb]]));
}

export function runtimeMock() {
  return {
    EventsOnMultiple: vi.fn(() => () => {}),
    EventsOn: vi.fn((_name: string, _cb: (...data: unknown[]) => void) => () => {}),
    BrowserOpenURL: vi.fn(),
    OnFileDrop: vi.fn((_cb: (x: number, y: number, paths: string[]) => void, _useDropTarget: boolean) => {}),
    ClipboardSetText: vi.fn(async (_text: string) => true),
  };
}

