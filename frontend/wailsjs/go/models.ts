export namespace acp {
	
	export interface AgentFeatures {
	    listSessions?: boolean;
	    deleteSessions?: boolean;
	    archiveSessions?: boolean;
	    logout?: boolean;
	    systemPrompt?: boolean;
	}
	export interface Boundary {
	    kind: string;
	    summary?: string;
	    replayed?: number;
	    added?: number;
	    link?: string;
	    fromId?: string;
	    from?: string;
	    fromAgent?: string;
	    turn?: number;
	    forked?: boolean;
	}
	export interface Compaction {
	    id: string;
	    status?: string;
	    summary?: string;
	    error?: string;
	}
	export interface Controls {
	    configOptions?: schema.ConfigOption[];
	    modes?: schema.Modes;
	    models?: schema.Models;
	    commands?: schema.SlashCommand[];
	    promptCapabilities?: schema.PromptCapabilities;
	    agentFeatures?: AgentFeatures;
	    canSteer?: boolean;
	    suggestions?: string[];
	}
	export interface DecisionSummary {
	    requestId: string;
	    toolCallId: string;
	    outcome: string;
	    optionId?: string;
	    optionName?: string;
	    optionKind?: string;
	    verdict?: string;
	    decidedBy?: string;
	    ruleId?: string;
	    ruleLabel?: string;
	}
	export interface Elicitation {
	    requestId: string;
	    mode: string;
	    message: string;
	    schema?: number[];
	    fields?: elicit.Field[];
	    url?: string;
	    host?: string;
	    elicitationId?: string;
	    state: string;
	    error?: string;
	    answer?: {[key: string]: any};
	    answeredBy?: string;
	}
	export interface Subagent {
	    sessionId: string;
	    parentId: string;
	    agentSessionId: string;
	    title?: string;
	    description?: string;
	    state?: string;
	    stopReason?: string;
	    cancel?: boolean;
	}
	export interface Notice {
	    severity?: string;
	    title: string;
	    description?: string;
	}
	export interface PlanDoc {
	    id: string;
	    type: string;
	    markdown?: string;
	    uri?: string;
	    removed?: boolean;
	}
	export interface ToolContent {
	    type: string;
	    text?: string;
	    path?: string;
	    oldText?: string;
	    newText?: string;
	    terminalId?: string;
	    raw?: number[];
	    output?: string;
	    truncated?: boolean;
	    exitStatus?: schema.TerminalExitStatus;
	    input?: boolean;
	}
	export interface Entry {
	    id: string;
	    kind: string;
	    turn: number;
	    text?: string;
	    messageId?: string;
	    attachments?: attach.Info[];
	    steered?: boolean;
	    toolCallId?: string;
	    toolKind?: string;
	    title?: string;
	    toolName?: string;
	    status?: string;
	    locations?: schema.Location[];
	    content?: ToolContent[];
	    rawInput?: number[];
	    rawOutput?: number[];
	    plan?: schema.PlanEntry[];
	    planDoc?: PlanDoc;
	    usage?: schema.Usage;
	    updateKind?: string;
	    raw?: number[];
	    data?: number[];
	    stderr?: string;
	    boundary?: Boundary;
	    notice?: Notice;
	    compaction?: Compaction;
	    subagent?: Subagent;
	    elicitation?: Elicitation;
	}
	
	export interface OptionSummary {
	    id: string;
	    name: string;
	    kind: string;
	    verdict?: string;
	    always?: boolean;
	}
	export interface RuleOption {
	    scope: string;
	    decision: string;
	    label: string;
	}
	export interface PermissionSummary {
	    requestId: string;
	    toolCallId: string;
	    title: string;
	    options: OptionSummary[];
	    toolKind?: string;
	    ruleOptions?: RuleOption[];
	}
	
	export interface QueuedPrompt {
	    id: string;
	    text: string;
	    attachments?: attach.Info[];
	    held?: boolean;
	}
	
	export interface TurnSummary {
	    turn: number;
	    stopReason?: string;
	    message?: string;
	    receipt?: receipt.Receipt;
	}
	export interface Snapshot {
	    sessionId: string;
	    seq: number;
	    state: string;
	    message?: string;
	    agentName: string;
	    cwd: string;
	    dirs?: string[];
	    title: string;
	    entries: Entry[];
	    permissions: PermissionSummary[];
	    decisions: DecisionSummary[];
	    turns: TurnSummary[];
	    stderr?: string;
	    controls?: Controls;
	    queue?: QueuedPrompt[];
	    agentVersion?: string;
	}
	
	

}

export namespace agents {
	
	export interface PresetState {
	    package?: string;
	    pinned?: string;
	    installable?: boolean;
	    updateTo?: string;
	    own?: boolean;
	    ownFound?: string;
	    overridden?: boolean;
	}

}

export namespace attach {
	
	export interface Attachment {
	    kind: string;
	    path?: string;
	    name?: string;
	    mimeType?: string;
	    data?: string;
	}
	export interface Info {
	    kind: string;
	    name: string;
	    path?: string;
	    mimeType?: string;
	    size: number;
	    sent: string;
	    width?: number;
	    height?: number;
	    thumbnail?: string;
	}

}

export namespace changes {
	
	export interface Hunk {
	    index: number;
	    oldStart: number;
	    oldLines: number;
	    newStart: number;
	    newLines: number;
	    lines: string[];
	}
	export interface FileDiff {
	    root: string;
	    path: string;
	    from?: string;
	    change: string;
	    added: number;
	    removed: number;
	    binary?: boolean;
	    tooBig?: boolean;
	    before?: string;
	    after?: string;
	    hunks: Hunk[];
	}
	export interface FileTouch {
	    sessionId: string;
	    title: string;
	    agentName: string;
	    turn: number;
	    change: string;
	    at: number;
	}
	
	export interface PlannedFile {
	    root: string;
	    path: string;
	    action: string;
	    conflict?: string;
	    reason?: string;
	    diff?: string;
	}
	export interface RevertRequest {
	    sessionId: string;
	    turn: number;
	    scope: string;
	    root?: string;
	    path?: string;
	    hunk?: number;
	    revert?: string;
	}
	export interface Plan {
	    request: RevertRequest;
	    files: PlannedFile[];
	    conflicts: number;
	    done: boolean;
	    revertId?: string;
	}
	
	
	export interface RevertView {
	    id: string;
	    request: RevertRequest;
	    at: number;
	    files: string[];
	    undone: boolean;
	}
	export interface TurnView {
	    turn: number;
	    prompt: string;
	    startedAt: number;
	    stopReason: string;
	    changes: schema.TurnChanges;
	    reverts: RevertView[];
	}
	export interface SessionView {
	    sessionId: string;
	    turns: TurnView[];
	    running: boolean;
	}

}

export namespace compare {
	
	export interface Row {
	    id: string;
	    agent: string;
	    agentId: string;
	    worktree: string;
	    branch: string;
	    discarded?: boolean;
	    state: string;
	    files: number;
	    added: number;
	    removed: number;
	    check?: store.Check;
	    checking?: boolean;
	    turns: number;
	    stopReason?: string;
	    wallMs: number;
	    waitMs: number;
	    tokens: number;
	    cost: schema.Cost[];
	    commands: receipt.Command[];
	    error?: string;
	}

}

export namespace elicit {
	
	export interface Choice {
	    value: string;
	    title: string;
	}
	export interface Field {
	    name: string;
	    type: string;
	    title?: string;
	    description?: string;
	    required?: boolean;
	    secret?: boolean;
	    format?: string;
	    choices?: Choice[];
	    pattern?: string;
	    minLength?: number;
	    maxLength?: number;
	    minItems?: number;
	    maxItems?: number;
	    minimum?: number;
	    maximum?: number;
	    default?: number[];
	}

}

export namespace fsys {
	
	export interface FolderFile {
	    path: string;
	    name: string;
	    size: number;
	}

}

export namespace hub {
	
	export interface AgentSessionItem {
	    sessionId: string;
	    cwd: string;
	    title?: string;
	    updatedAt?: string;
	    savedId?: string;
	}
	export interface AgentSessionPage {
	    sessions: AgentSessionItem[];
	    nextCursor?: string;
	}
	export interface AuditItem {
	    sessionId: string;
	    sessionTitle: string;
	    agentId: string;
	    agentName: string;
	    cwd: string;
	    requestId: string;
	    toolCallId: string;
	    title: string;
	    toolKind: string;
	    turn: number;
	    verdict: string;
	    optionName: string;
	    optionKind: string;
	    decidedBy: string;
	    ruleId: string;
	    ruleLabel: string;
	    requestedAt: string;
	    decidedAt: string;
	}
	export interface SessionInfo {
	    sessionId: string;
	    agentId: string;
	    agentName: string;
	    cwd: string;
	    agentVersion?: string;
	    worktree?: store.Worktree;
	}
	export interface ComparisonInfo {
	    id: string;
	    sessions: SessionInfo[];
	}
	export interface ComparisonView {
	    id: string;
	    cwd: string;
	    prompt: string;
	    check: string;
	    // Go type: time
	    createdAt: any;
	    members: string[];
	    rows: compare.Row[];
	}
	export interface HouseRules {
	    agentId: string;
	    folder: string;
	    text: string;
	    saved: string;
	    max: number;
	}
	export interface RuleInfo {
	    id: string;
	    agentId: string;
	    agentName: string;
	    folder: string;
	    kind: string;
	    tool: string;
	    path: string;
	    command: string;
	    decision: string;
	    disabled: boolean;
	    label: string;
	    createdAt: string;
	    fired: number;
	    lastFiredAt: string;
	}
	export interface RuleList {
	    paused: boolean;
	    rules: RuleInfo[];
	}
	
	export interface WorktreeChoice {
	    possible: boolean;
	    why?: string;
	    chosen: boolean;
	    uncommitted: number;
	}

}

export namespace main {
	
	export interface AgentEnvVar {
	    name: string;
	    value: string;
	    secret: boolean;
	    isSet: boolean;
	}
	export interface AgentInfo {
	    id: string;
	    name: string;
	    available: boolean;
	    reason?: string;
	    custom: boolean;
	    folder?: string;
	    version?: string;
	    signIn?: string;
	    preset?: agents.PresetState;
	}
	export interface AgentSettings {
	    id: string;
	    name: string;
	    command: string;
	    args: string;
	    env: AgentEnvVar[];
	    folder: string;
	    version?: string;
	}
	export interface AuditFilter {
	    sessionId: string;
	    agentId: string;
	    folder: string;
	    verdict: string;
	    decidedBy: string;
	    ruleId: string;
	    since: string;
	}
	export interface AuthVarInfo {
	    name: string;
	    label?: string;
	    optional: boolean;
	    secret: boolean;
	    isSet: boolean;
	}
	export interface AuthMethodInfo {
	    id: string;
	    name: string;
	    description?: string;
	    type: string;
	    vars?: AuthVarInfo[];
	    link?: string;
	    command?: string;
	}
	export interface AuthPrompt {
	    sessionId: string;
	    agentId: string;
	    agentName: string;
	    message: string;
	    methods: AuthMethodInfo[];
	    canRunTerminal: boolean;
	}
	
	export interface DroppedFiles {
	    files: fsys.FolderFile[];
	    problems: string[];
	}
	export interface FolderCheck {
	    path: string;
	    broad: string;
	}
	export interface HistoryItem {
	    id: string;
	    title: string;
	    agentId?: string;
	    agentName: string;
	    cwd: string;
	    createdAt: string;
	    updatedAt: string;
	    outcome: string;
	    turns: number;
	    snippet?: string;
	    parentId?: string;
	    parentTitle?: string;
	    parentAgent?: string;
	    parentTurn?: number;
	    parentDeleted?: boolean;
	    linkKind?: string;
	    forks?: number;
	    subagentOf?: string;
	}
	export interface HistoryPart {
	    snapshot: acp.Snapshot;
	    from: number;
	    total: number;
	}
	export interface HistoryStatus {
	    saving: boolean;
	    problem?: string;
	    since?: number;
	}
	export interface ImportResult {
	    added: string[];
	    skipped: string[];
	}
	export interface JournalLine {
	    direction: 'in' | 'out';
	    method?: string;
	    json: string;
	    at: string;
	}
	export interface LiveSession {
	    sessionId: string;
	    agentId: string;
	    agentName: string;
	    cwd: string;
	    state: string;
	}
	export interface MCPSettings {
	    name: string;
	    was: string;
	    transport: string;
	    command: string;
	    args: string;
	    env: AgentEnvVar[];
	    url: string;
	    headers: AgentEnvVar[];
	    agents: string[];
	    disabled: boolean;
	}
	export interface RegistryItem {
	    id: string;
	    agentId: string;
	    name: string;
	    version: string;
	    description: string;
	    website?: string;
	    license?: string;
	    kind: string;
	    source: string;
	    installed: string;
	    previous: string;
	    verified: boolean;
	    problem?: string;
	}
	export interface RegistryListing {
	    items: RegistryItem[];
	    origin: string;
	    offline: boolean;
	    note: string;
	    problem?: string;
	    fetchedAt: string;
	    platform: string;
	}
	export interface SessionInfo {
	    sessionId: string;
	    agentId: string;
	    agentName: string;
	    cwd: string;
	    agentVersion?: string;
	    worktree?: store.Worktree;
	}
	export interface UsageReport {
	    by: string;
	    since: string;
	    rows: store.UsageRow[];
	    total: store.UsageRow;
	    silent: string[];
	}
	export interface WorktreeView {
	    repo: string;
	    path: string;
	    branch: string;
	    base: string;
	    project: string;
	    discarded?: boolean;
	    ahead: number;
	    behind: number;
	    dirty: number;
	    statusError?: string;
	    comparisonId?: string;
	}

}

export namespace receipt {
	
	export interface Command {
	    command: string;
	    toolCallId?: string;
	    exitCode?: number;
	    signal?: string;
	}
	export interface Decision {
	    title: string;
	    toolCallId?: string;
	    outcome: string;
	    option?: string;
	    kind?: string;
	    decidedBy?: string;
	    rule?: string;
	}
	export interface Question {
	    message: string;
	    mode: string;
	    state: string;
	    answeredBy?: string;
	}
	export interface Tokens {
	    input: number;
	    output: number;
	    thought?: number;
	    cachedRead?: number;
	    cachedWrite?: number;
	    total: number;
	}
	export interface Receipt {
	    stopReason: string;
	    changes?: schema.TurnChanges;
	    startedAt: number;
	    endedAt: number;
	    wallMs: number;
	    waitMs?: number;
	    commands?: Command[];
	    decisions?: Decision[];
	    questions?: Question[];
	    tokens?: Tokens;
	    cost?: schema.Cost;
	    moreCommands?: number;
	    moreDecisions?: number;
	    moreQuestions?: number;
	}

}

export namespace rules {
	
	export interface Rule {
	    id: string;
	    agentId?: string;
	    folder?: string;
	    kind?: string;
	    tool?: string;
	    path?: string;
	    command?: string;
	    decision: string;
	    disabled?: boolean;
	}

}

export namespace schema {
	
	export interface ChangedFile {
	    root: string;
	    path: string;
	    from?: string;
	    change: string;
	    added: number;
	    removed: number;
	    binary?: boolean;
	    tooBig?: boolean;
	}
	export interface CommandInput {
	    hint?: string;
	}
	export interface ConfigOption {
	    id: string;
	    name: string;
	    description?: string;
	    category?: string;
	    type: string;
	    currentValue?: number[];
	    options?: number[];
	}
	export interface Cost {
	    amount: number;
	    currency: string;
	}
	export interface Location {
	    path: string;
	    line?: number;
	}
	export interface Mode {
	    id: string;
	    name: string;
	    description?: string;
	}
	export interface Model {
	    modelId: string;
	    name: string;
	    description?: string;
	}
	export interface Models {
	    currentModelId: string;
	    availableModels: Model[];
	}
	export interface Modes {
	    currentModeId: string;
	    availableModes: Mode[];
	}
	export interface PlanEntry {
	    content: string;
	    priority: string;
	    status: string;
	}
	export interface PromptCapabilities {
	    image?: boolean;
	    audio?: boolean;
	    embeddedContext?: boolean;
	}
	export interface SlashCommand {
	    name: string;
	    description?: string;
	    input?: CommandInput;
	}
	export interface TerminalExitStatus {
	    exitCode?: number;
	    signal?: string;
	}
	export interface TurnChanges {
	    files?: ChangedFile[];
	    more?: number;
	    notes?: string[];
	    error?: string;
	}
	export interface Usage {
	    used: number;
	    size: number;
	    cost?: Cost;
	}

}

export namespace store {
	
	export interface Check {
	    turn: number;
	    command: string;
	    exitCode: number;
	    output: string;
	    durationMs: number;
	    error?: string;
	}
	export interface UsageCost {
	    currency: string;
	    amount: number;
	}
	export interface UsageRow {
	    key: string;
	    label: string;
	    agent?: string;
	    turns: number;
	    wallMs: number;
	    reported: number;
	    tokensIn: number;
	    tokensOut: number;
	    tokensTotal: number;
	    costs: UsageCost[];
	}
	export interface Worktree {
	    repo: string;
	    path: string;
	    branch: string;
	    base: string;
	    project: string;
	    discarded?: boolean;
	}

}

export namespace worktree {
	
	export interface FileApply {
	    path: string;
	    action: string;
	    conflict?: string;
	    markers?: string;
	}
	export interface ApplyResult {
	    files: FileApply[];
	    conflicts: number;
	    applied: boolean;
	}
	export interface Change {
	    path: string;
	    status: string;
	    added: number;
	    removed: number;
	    binary: boolean;
	}
	
	export interface Review {
	    files: Change[];
	    added: number;
	    removed: number;
	    diff: string;
	}

}

