// The change ledger as the window reads it (issue 17): the hand-written types of the History
// service's Changes verbs (backend/changes/types.go, checked against the generated models below),
// and pure helpers for the Changes card and view: labels, counts, grouping by folder, diff hunks
// as diff lines, and the revert requests. No I/O here (lib/api.ts calls, state/changes.svelte.ts
// keeps what is open).
import type { changes } from '../../wailsjs/go/models';
import type { DiffLine } from './diff';
import type { ChangedFile, Holds, SameFields, TurnChanges, TurnInfo } from './protocol';

export type Scope = 'turn' | 'since' | 'file' | 'hunk' | 'undo';

/** What to revert (changes.RevertRequest): a turn, the turns from one on, a file or a hunk of one. */
export interface RevertRequest {
  sessionId: string;
  turn: number;
  scope: Scope;
  root?: string;
  path?: string;
  /** The hunk's index in ChangeDiff's hunks (scope hunk). */
  hunk?: number;
  /** The revert an undo undoes (scope undo). */
  revert?: string;
}

/** What a revert does, or would do, to one file (changes.PlannedFile). */
export interface PlannedFile {
  root: string;
  path: string;
  action: 'restore' | 'delete' | 'skip' | (string & {});
  /** What changed the file after the turn: the revert would overwrite it, so nothing is written. */
  conflict?: string;
  reason?: string;
  /** Unified diff from the file as it is now to what the revert writes (text files only). */
  diff?: string;
}

/** A revert's preview, or what it did (changes.Plan): Done and RevertId once carried out. */
export interface Plan {
  request: RevertRequest;
  files: PlannedFile[] | null;
  conflicts: number;
  done: boolean;
  revertId?: string;
}

/** A recorded revert (changes.RevertView). */
export interface RevertView {
  id: string;
  request: RevertRequest;
  /** Unix ms. */
  at: number;
  files: string[] | null;
  undone: boolean;
}

/** One turn in the session's Changes view (changes.TurnView). */
export interface TurnView {
  turn: number;
  prompt: string;
  startedAt: number;
  stopReason: string;
  changes: TurnChanges;
  reverts: RevertView[] | null;
}

/** A session's whole change history (changes.SessionView). */
export interface SessionView {
  sessionId: string;
  turns: TurnView[] | null;
  /** A turn of the session is running: nothing can be reverted now. */
  running: boolean;
}

/** One hunk of a file's diff (changes.Hunk); lines start with ' ', '+' or '-'. */
export interface Hunk {
  index: number;
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[] | null;
}

/** One file of a turn with its text before and after (changes.FileDiff); no text for binary or too-big files. */
export interface FileDiff extends ChangedFile {
  before?: string | null;
  after?: string | null;
  hunks: Hunk[] | null;
}

/** A turn of a saved session that changed a file (changes.FileTouch). */
export interface FileTouch {
  sessionId: string;
  title: string;
  agentName: string;
  turn: number;
  change: string;
  /** Unix ms. */
  at: number;
}

// ---- the hand-written types against the generated models (as protocol.ts does) ----
/** Fails the type check when a type above and its generated model name different fields. */
export type ChangesFieldsMatch = [
  Holds<SameFields<RevertRequest, changes.RevertRequest>>,
  Holds<SameFields<PlannedFile, changes.PlannedFile>>,
  Holds<SameFields<Plan, changes.Plan>>,
  Holds<SameFields<RevertView, changes.RevertView>>,
  Holds<SameFields<TurnView, changes.TurnView>>,
  Holds<SameFields<SessionView, changes.SessionView>>,
  Holds<SameFields<Hunk, changes.Hunk>>,
  Holds<SameFields<FileDiff, changes.FileDiff>>,
  Holds<SameFields<FileTouch, changes.FileTouch>>,
];

// ---- reading a turn's changes ----

/** The changes a turn's card shows, or null when the turn changed no file (or was not recorded). */
export function turnFiles(turn: Pick<TurnInfo, 'receipt'> | null | undefined): TurnChanges | null {
  const c = turn?.receipt?.changes;
  if (!c) return null;
  return (c.files?.length ?? 0) > 0 || (c.more ?? 0) > 0 ? c : null;
}

/** A key for one file of one turn of one session (the open diff, its loaded data). */
export function fileKey(sessionId: string, turn: number, f: Pick<ChangedFile, 'root' | 'path'>): string {
  return `${sessionId}\u0000${turn}\u0000${f.root}\u0000${f.path}`;
}

export interface Totals {
  files: number;
  added: number;
  removed: number;
}

/** Files and lines added and removed over a turn's files (the files left out counted as files). */
export function totals(c: TurnChanges): Totals {
  const files = c.files ?? [];
  let added = 0;
  let removed = 0;
  for (const f of files) {
    added += f.added;
    removed += f.removed;
  }
  return { files: files.length + (c.more ?? 0), added, removed };
}

const CHANGE_WORDS: Record<ChangedFile['change'], string> = {
  added: 'Added',
  modified: 'Modified',
  deleted: 'Deleted',
  renamed: 'Renamed',
};

/** The file's change in a word ("Renamed from a.txt" for a rename). */
export function changeLabel(f: Pick<ChangedFile, 'change' | 'from'>): string {
  const word = CHANGE_WORDS[f.change] ?? f.change;
  return f.change === 'renamed' && f.from ? `${word} from ${f.from}` : word;
}

/** What the row says instead of, or beside, its line counts: why its content is not shown. */
export function fileNote(f: Pick<ChangedFile, 'binary' | 'tooBig'>): string {
  if (f.tooBig) return 'too big to keep: cannot be shown or reverted';
  if (f.binary) return 'binary';
  return '';
}

/** "3 files · +12 −4" (the minus is U+2212). */
export function totalsLabel(t: Totals): string {
  return `${t.files} ${t.files === 1 ? 'file' : 'files'} · +${t.added} \u2212${t.removed}`;
}

export interface FolderGroup {
  root: string;
  /** The folder's name when the turn changed files in more than one folder, else ''. */
  label: string;
  files: ChangedFile[];
}

/**
 * A turn's files by folder: the session's folder (cwd) first, then the others in the order they
 * come; paths sorted within each. One folder needs no label.
 */
export function groupByRoot(files: readonly ChangedFile[], cwd = ''): FolderGroup[] {
  const byRoot = new Map<string, ChangedFile[]>();
  for (const f of files) {
    const list = byRoot.get(f.root);
    if (list) list.push(f);
    else byRoot.set(f.root, [f]);
  }
  const roots = [...byRoot.keys()].sort((a, b) => (a === cwd ? -1 : b === cwd ? 1 : 0));
  const many = roots.length > 1;
  return roots.map((root) => ({
    root,
    label: many ? baseName(root) : '',
    files: [...byRoot.get(root)!].sort((a, b) => a.path.localeCompare(b.path)),
  }));
}

function baseName(p: string): string {
  const parts = p.replace(/\/+$/, '').split('/');
  return parts[parts.length - 1] || p;
}

// ---- diffs ----

/** A hunk's lines as diff lines, numbered from its starts (for DiffView). */
export function hunkLines(h: Hunk): DiffLine[] {
  let oldNo = h.oldStart;
  let newNo = h.newStart;
  const out: DiffLine[] = [];
  for (const raw of h.lines ?? []) {
    const sign = raw.charAt(0);
    const text = raw.slice(1);
    if (sign === '+') out.push({ op: 'add', text, newNo: newNo++ });
    else if (sign === '-') out.push({ op: 'del', text, oldNo: oldNo++ });
    else if (sign === '\\') continue; // "\ No newline at end of file"
    else out.push({ op: 'same', text, oldNo: oldNo++, newNo: newNo++ });
  }
  return out;
}

/** Where a hunk is, for a person: "Lines 3–8" (of the file after the turn), "Line 3". */
export function hunkLabel(h: Hunk): string {
  const start = h.newLines > 0 ? h.newStart : h.oldStart;
  const count = h.newLines > 0 ? h.newLines : h.oldLines;
  if (count <= 1) return `Line ${start}`;
  return `Lines ${start}\u2013${start + count - 1}`;
}

// ---- reverts ----

export function revertTurn(sessionId: string, turn: number): RevertRequest {
  return { sessionId, turn, scope: 'turn' };
}

/** Puts the folders back as they were before turn `turn`: later turns are undone too. */
export function revertSince(sessionId: string, turn: number): RevertRequest {
  return { sessionId, turn, scope: 'since' };
}

export function revertFile(sessionId: string, turn: number, f: Pick<ChangedFile, 'root' | 'path'>): RevertRequest {
  return { sessionId, turn, scope: 'file', root: f.root, path: f.path };
}

export function revertHunk(sessionId: string, turn: number, f: Pick<ChangedFile, 'root' | 'path'>, hunk: number): RevertRequest {
  return { sessionId, turn, scope: 'hunk', root: f.root, path: f.path, hunk };
}

/** Whether two requests ask for the same revert. */
export function sameRequest(a: RevertRequest | null | undefined, b: RevertRequest | null | undefined): boolean {
  if (!a || !b) return false;
  return (
    a.sessionId === b.sessionId &&
    a.turn === b.turn &&
    a.scope === b.scope &&
    (a.root ?? '') === (b.root ?? '') &&
    (a.path ?? '') === (b.path ?? '') &&
    (a.hunk ?? 0) === (b.hunk ?? 0) &&
    (a.revert ?? '') === (b.revert ?? '')
  );
}

/** What a revert request does, as the preview's title says it. */
export function requestLabel(r: RevertRequest): string {
  switch (r.scope) {
    case 'turn':
      return `Revert what turn ${r.turn} changed`;
    case 'since':
      return `Put the files back as they were before turn ${r.turn} (later turns are undone too)`;
    case 'file':
      return `Revert ${r.path} to before turn ${r.turn}`;
    case 'hunk':
      return `Revert one change to ${r.path} from turn ${r.turn}`;
    case 'undo':
      return `Undo the revert of turn ${r.turn}`;
  }
  return `Revert turn ${r.turn}`;
}

/** What the revert does to one file, in words. */
export function actionLabel(p: PlannedFile): string {
  if (p.conflict) return `Conflict: ${p.conflict}`;
  switch (p.action) {
    case 'restore':
      return 'Restore its earlier content';
    case 'delete':
      return 'Delete it (the turn created it)';
    case 'skip':
      return p.reason ? `Left as it is: ${p.reason}` : 'Left as it is';
  }
  return p.action;
}

/** A plan in one line: what it writes, or why it writes nothing. */
export function planSummary(p: Plan): string {
  const files = p.files ?? [];
  if (p.conflicts > 0) {
    const n = p.conflicts;
    return `${n} ${n === 1 ? 'file was' : 'files were'} changed after the turn: nothing will be reverted, so that ${n === 1 ? 'change is' : 'those changes are'} not overwritten.`;
  }
  const restore = files.filter((f) => f.action === 'restore').length;
  const del = files.filter((f) => f.action === 'delete').length;
  const parts: string[] = [];
  if (restore) parts.push(`${restore} ${restore === 1 ? 'file' : 'files'} restored`);
  if (del) parts.push(`${del} ${del === 1 ? 'file' : 'files'} deleted`);
  if (parts.length === 0) return 'Nothing to revert: the files are already as they were.';
  return `${parts.join(', ')}.`;
}

/** Whether a plan can be carried out: no conflict, and something to write. */
export function canApply(p: Plan): boolean {
  return p.conflicts === 0 && (p.files ?? []).some((f) => f.action === 'restore' || f.action === 'delete');
}

/** Why the revert buttons are disabled while a turn of the session runs. */
export const RUNNING_REASON = 'A turn of this session is running: revert once it has ended.';

/** A FileTouch in a line: "Fix the parser · Claude Code · turn 3 · modified". */
export function touchLabel(t: FileTouch): string {
  return [t.title || 'Untitled session', t.agentName, `turn ${t.turn}`, t.change].filter(Boolean).join(' \u00b7 ');
}
